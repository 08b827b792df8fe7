#pragma once

// The passphrase of a new LUKS2 volume, typed twice. It stays in memory: the queued operation
// hands it to cryptsetup on its standard input when applied, and a saved plan never holds it
// (core/ops/planfile.cpp writes a key file's name instead).

#include <QWidget>

class QLabel;
class QLineEdit;

class PassphraseFields : public QWidget
{
    Q_OBJECT
public:
    explicit PassphraseFields(QWidget *parent = nullptr);

    // Both fields agree and are not empty.
    bool complete() const;
    QByteArray passphrase() const;

signals:
    void changed();

private:
    void update();

    QLineEdit *m_first = nullptr;
    QLineEdit *m_second = nullptr;
    QLabel *m_status = nullptr;
};
