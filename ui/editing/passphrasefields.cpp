#include "passphrasefields.h"

#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>

PassphraseFields::PassphraseFields(QWidget *parent) : QWidget(parent)
{
    auto *form = new QFormLayout(this);
    form->setContentsMargins(0, 0, 0, 0);
    m_first = new QLineEdit;
    m_first->setObjectName(QStringLiteral("passphrase"));
    m_first->setEchoMode(QLineEdit::Password);
    m_second = new QLineEdit;
    m_second->setObjectName(QStringLiteral("passphraseAgain"));
    m_second->setEchoMode(QLineEdit::Password);
    m_status = new QLabel;
    m_status->setWordWrap(true);
    form->addRow(tr("&Passphrase:"), m_first);
    form->addRow(tr("&Repeat:"), m_second);
    form->addRow(m_status);
    connect(m_first, &QLineEdit::textChanged, this, &PassphraseFields::update);
    connect(m_second, &QLineEdit::textChanged, this, &PassphraseFields::update);
    update();
}

bool PassphraseFields::complete() const
{
    return !m_first->text().isEmpty() && m_first->text() == m_second->text();
}

QByteArray PassphraseFields::passphrase() const
{
    return m_first->text().toUtf8();
}

void PassphraseFields::update()
{
    if (m_first->text().isEmpty())
        m_status->setText(tr("The volume is encrypted with this passphrase; it is asked for "
                             "whenever the volume is opened. It is not saved anywhere."));
    else if (!complete())
        m_status->setText(tr("The two passphrases differ."));
    else
        m_status->setText(tr("The passphrases match."));
    emit changed();
}
