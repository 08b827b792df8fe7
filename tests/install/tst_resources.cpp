// The Qt resources the GUI links: every icon is present under :/partwise and renders.
#include <QGuiApplication>
#include <QIcon>
#include <QImage>
#include <QPainter>
#include <QSvgRenderer>
#include <QTest>

class TstResources : public QObject
{
    Q_OBJECT
private slots:
    void icons_data()
    {
        QTest::addColumn<QString>("path");
        for (const char *name : {"org.partwise.Partwise", "aligned", "sector-aligned",
                                 "misaligned", "realign"})
            QTest::newRow(name) << QStringLiteral(":/partwise/icons/%1.svg").arg(name);
    }

    void icons()
    {
        QFETCH(QString, path);
        QSvgRenderer svg(path);
        QVERIFY2(svg.isValid(), qPrintable(path));

        for (int size : {16, 48}) {
            QImage image(size, size, QImage::Format_ARGB32_Premultiplied);
            image.fill(Qt::transparent);
            QPainter painter(&image);
            svg.render(&painter);
            painter.end();
            int opaque = 0;
            for (int y = 0; y < size; ++y)
                for (int x = 0; x < size; ++x)
                    opaque += qAlpha(image.pixel(x, y)) == 255;
            QVERIFY2(opaque > size * size / 5, qPrintable(path));
        }
        QVERIFY(!QIcon(path).pixmap(24, 24).isNull());
    }
};

QTEST_MAIN(TstResources)
#include "tst_resources.moc"
