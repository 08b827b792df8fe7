#pragma once

#include "ops/operation.h"

#include <QList>
#include <QObject>

class QUndoStack;

// The changes queued for one disk: a QUndoStack whose commands each hold one core Operation.
// operations() is always the list of the commands that are currently done, in order, so the
// window can preview it and Apply can run it; changed() says when it moved.
class PendingOperations : public QObject
{
    Q_OBJECT

public:
    explicit PendingOperations(const QString &target, QObject *parent = nullptr);
    ~PendingOperations() override;

    QString target() const { return m_target; }
    QUndoStack *undoStack() const { return m_stack; }
    const QList<partwise::Operation> &operations() const { return m_operations; }
    int count() const { return int(m_operations.size()); }
    bool isEmpty() const { return m_operations.isEmpty(); }

    // Queues one operation (undoable).
    void push(const partwise::Operation &operation);
    // Queues several operations as one undo step (e.g. the flags of a partition).
    void pushGroup(const QList<partwise::Operation> &operations, const QString &text);
    // Replaces the queue with `operations` (a loaded plan) as one undo step.
    void replaceAll(const QList<partwise::Operation> &operations, const QString &text);
    // Forgets everything, including the undo history.
    void clear();

signals:
    void changed();

private:
    friend class OperationCommand;
    void appendOperation(const partwise::Operation &operation);
    void removeLastOperation();

    QString m_target;
    QUndoStack *m_stack = nullptr;
    QList<partwise::Operation> m_operations;
};
