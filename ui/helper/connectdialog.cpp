#include "connectdialog.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>

ConnectDialog::ConnectDialog(QWidget *parent) : QDialog(parent)
{
    setWindowTitle(tr("Connect to Machine"));
    setObjectName(QStringLiteral("connectDialog"));
    auto *layout = new QFormLayout(this);
    auto *intro = new QLabel(
        tr("Show the disks of another machine: a server, or a PC started from a live USB. "
           "Partwise logs in with ssh (your key or ssh's own password prompt) and starts "
           "<tt>partwise-cli serve</tt> there, so the machine needs partwise-cli installed."));
    intro->setWordWrap(true);
    layout->addRow(intro);
    m_destination = new QLineEdit(QSettings().value("connect/destination").toString());
    m_destination->setObjectName(QStringLiteral("destinationEdit"));
    m_destination->setPlaceholderText(tr("root@server or user@192.168.1.20"));
    layout->addRow(tr("&Machine:"), m_destination);
    m_sudo = new QCheckBox(tr("&Run the helper with sudo (the account is not root; sudo must "
                              "not ask for a password)"));
    m_sudo->setObjectName(QStringLiteral("sudoCheck"));
    m_sudo->setChecked(QSettings().value("connect/sudo", false).toBool());
    layout->addRow(m_sudo);
    m_problem = new QLabel;
    m_problem->setObjectName(QStringLiteral("destinationProblem"));
    m_problem->setWordWrap(true);
    layout->addRow(m_problem);
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("&Connect"));
    layout->addRow(m_buttons);
    connect(m_buttons, &QDialogButtonBox::accepted, this, [this] {
        QSettings().setValue("connect/destination", m_destination->text().trimmed());
        QSettings().setValue("connect/sudo", m_sudo->isChecked());
        accept();
    });
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_destination, &QLineEdit::textChanged, this, &ConnectDialog::validate);
    validate();
}

SshTarget ConnectDialog::target() const
{
    return {m_destination->text().trimmed(), m_sudo->isChecked()};
}

void ConnectDialog::validate()
{
    const QString destination = m_destination->text().trimmed();
    const QString problem = destination.isEmpty() ? QString() : sshDestinationProblem(destination);
    m_problem->setText(problem);
    m_buttons->button(QDialogButtonBox::Ok)
        ->setEnabled(!destination.isEmpty() && problem.isEmpty());
}
