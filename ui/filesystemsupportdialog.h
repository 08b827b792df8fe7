#pragma once

// Help → Filesystem Support: every filesystem Partwise knows against every action, and whether
// this machine has the tools for it, naming the Debian package of what is missing. Rescan looks
// the tools up again (after an apt install in another window).

#include <QDialog>

class QTableWidget;

class FilesystemSupportDialog : public QDialog
{
    Q_OBJECT
public:
    explicit FilesystemSupportDialog(QWidget *parent = nullptr);

    QTableWidget *table() const { return m_table; }
    void rescan();

private:
    QTableWidget *m_table = nullptr;
};
