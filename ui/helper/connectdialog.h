#pragma once

#include "sshcommand.h"

#include <QDialog>

class QCheckBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;

// File → Connect to Machine…: asks for `[user@]host` and whether the helper there runs
// through sudo, and says what is needed on the other side before anything is tried.
class ConnectDialog : public QDialog
{
    Q_OBJECT

public:
    explicit ConnectDialog(QWidget *parent = nullptr);

    SshTarget target() const;

private:
    void validate();

    QLineEdit *m_destination = nullptr;
    QCheckBox *m_sudo = nullptr;
    QLabel *m_problem = nullptr;
    QDialogButtonBox *m_buttons = nullptr;
};
