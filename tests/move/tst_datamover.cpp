#include <QtTest>
class TestDataMover : public QObject { Q_OBJECT };
QTEST_GUILESS_MAIN(TestDataMover)
#include "tst_datamover.moc"
