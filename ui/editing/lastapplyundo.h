#pragma once

#include "backgroundjob.h"
#include "ops/applyrunner.h"

#include <QHash>
#include <QObject>
#include <QString>

#include <functional>

class QAction;
class QWidget;

// Edit → Undo Last Apply…: puts back the table backup the last Apply of a disk took before it
// wrote, where that undoes it honestly (ops/applyundo.h: the Apply wrote only the table), after
// the checks `partwise-cli restore` makes (ops/tablerestorecheck.h: no data moved since, nothing
// in use) and a question. Where it cannot, the item is greyed and its status tip says why.
class LastApplyUndo : public QObject
{
    Q_OBJECT

public:
    struct Hooks
    {
        std::function<void(const QString &path)> reread; // after the table went back
        std::function<QString(const QString &path)> diskName;
    };
    LastApplyUndo(QWidget *window, Hooks hooks, QObject *parent);

    QAction *action() const { return m_action; }

    // An Apply of `operations` to `path` ended with `result`; `throughHelper`: a root helper
    // wrote it, and holds its backup.
    void record(const QString &path, const QList<partwise::Operation> &operations,
                const partwise::ApplyResult &result, bool throughHelper);
    // Something else wrote `path` since (a realignment, a copy onto it): `why` greys the item.
    void forget(const QString &path, const QString &why);
    // The disk on screen, whether it has pending operations, whether it is an image.
    void update(const QString &path, bool queued, bool isImage);

public slots:
    void undo();

private:
    struct Record
    {
        QString backupFolder;
        QString refusal; // why it cannot be undone; empty: it can
    };
    void refresh(); // the action's state and tip, for the disk on screen
    void ask(const QString &path, const QString &backupFolder, const QStringList &changes);
    void restore(const QString &path, const QString &backupFolder);
    void finished(const QString &path, bool ok, const QString &message);
    QString name(const QString &path) const;

    QWidget *m_window;
    Hooks m_hooks;
    QAction *m_action;
    QHash<QString, Record> m_records;
    QString m_path;
    bool m_queued = false;
    bool m_isImage = false;
    BackgroundJob m_job; // last: waited for before anything its result goes to is gone
};
