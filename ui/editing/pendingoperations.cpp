#include "editing/pendingoperations.h"

#include <QSignalBlocker>
#include <QUndoCommand>
#include <QUndoStack>

using namespace partwise;

// One queued operation. The stack is linear, so the command at depth i always owns position i
// of the list: redo appends, undo removes the last one.
class OperationCommand : public QUndoCommand
{
public:
    OperationCommand(PendingOperations *owner, const Operation &operation, QUndoCommand *parent)
        : QUndoCommand(operation.description(), parent), m_owner(owner), m_operation(operation)
    {
    }

    void redo() override { m_owner->appendOperation(m_operation); }
    void undo() override { m_owner->removeLastOperation(); }

private:
    PendingOperations *m_owner;
    Operation m_operation;
};

namespace {

// Clears the list before its children run again (used when a plan replaces the queue).
class ReplaceCommand : public QUndoCommand
{
public:
    ReplaceCommand(QList<Operation> *list, const QString &text) : QUndoCommand(text), m_list(list)
    {
    }
    void redo() override
    {
        m_saved = *m_list;
        m_list->clear();
        QUndoCommand::redo();
    }
    void undo() override
    {
        QUndoCommand::undo();
        *m_list = m_saved;
    }

private:
    QList<Operation> *m_list;
    QList<Operation> m_saved;
};

} // namespace

PendingOperations::PendingOperations(const QString &target, QObject *parent)
    : QObject(parent), m_target(target), m_stack(new QUndoStack(this))
{
    connect(m_stack, &QUndoStack::indexChanged, this, &PendingOperations::changed);
}

PendingOperations::~PendingOperations() = default;

void PendingOperations::push(const Operation &operation)
{
    m_stack->push(new OperationCommand(this, operation, nullptr));
}

void PendingOperations::pushGroup(const QList<Operation> &operations, const QString &text)
{
    if (operations.isEmpty())
        return;
    if (operations.size() == 1) {
        push(operations.first());
        return;
    }
    auto *group = new QUndoCommand(text);
    for (const Operation &op : operations)
        new OperationCommand(this, op, group);
    m_stack->push(group);
}

void PendingOperations::replaceAll(const QList<Operation> &operations, const QString &text)
{
    auto *replace = new ReplaceCommand(&m_operations, text);
    for (const Operation &op : operations)
        new OperationCommand(this, op, replace);
    m_stack->push(replace);
}

void PendingOperations::clear()
{
    m_operations.clear();
    {
        // The stack's own signals must go out: the Undo action and the queue's view listen to
        // them, and would otherwise still offer to undo what was just applied. Only our
        // changed() waits, to be sent once with the list already empty.
        const QSignalBlocker quiet(this);
        m_stack->clear();
    }
    emit changed();
}

void PendingOperations::appendOperation(const Operation &operation)
{
    m_operations.append(operation);
}

void PendingOperations::removeLastOperation()
{
    if (!m_operations.isEmpty())
        m_operations.removeLast();
}
