// What libparted's questions offer a person (table/partedsession): an I/O error (Retry, Ignore,
// Cancel) never offers Ignore, which would let libparted go on as if the sector had been read
// or written; other questions keep their choices.
#include "table/partedsession.h"

#include <QtTest>

#include <parted/parted.h>

using namespace partwise;

class TestPartedSession : public QObject
{
    Q_OBJECT

private slots:
    void anIoErrorNeverOffersIgnore()
    {
        QStringList offered;
        PartedSession session([&offered](const PartedMessage &m) {
            offered = m.choices;
            return QStringLiteral("Ignore"); // what a careless or hostile client would answer
        });
        const PedExceptionOption answer =
            ped_exception_throw(PED_EXCEPTION_ERROR, PED_EXCEPTION_RETRY_IGNORE_CANCEL,
                                "Input/output error during write on /dev/sdz");
        QCOMPARE(offered, (QStringList{QStringLiteral("Retry"), QStringLiteral("Cancel")}));
        QCOMPARE(answer, PED_EXCEPTION_CANCEL);
    }

    void otherQuestionsKeepIgnore()
    {
        QStringList offered;
        PartedSession session([&offered](const PartedMessage &m) {
            offered = m.choices;
            return QStringLiteral("Ignore");
        });
        const PedExceptionOption answer =
            ped_exception_throw(PED_EXCEPTION_WARNING, PED_EXCEPTION_IGNORE_CANCEL,
                                "The kernel was not told about the change.");
        QCOMPARE(offered, (QStringList{QStringLiteral("Ignore"), QStringLiteral("Cancel")}));
        QCOMPARE(answer, PED_EXCEPTION_IGNORE);
    }
};

QTEST_GUILESS_MAIN(TestPartedSession)
#include "tst_partedsession.moc"
