#include "ops/operationpreview.h"

#include "ops/tableeditor.h"

namespace partwise {

PreviewResult previewOperations(const DiskLayout &current, const QList<Operation> &operations,
                                const AlignmentPolicy &policy)
{
    PreviewResult result;
    result.layout = current;
    TableEditor editor;
    if (!editor.open(current, &result.error)) {
        result.failedIndex = 0;
        return result;
    }
    for (int i = 0; i < operations.size(); ++i) {
        if (!editor.apply(operations[i], policy, &result.error)) {
            result.failedIndex = i;
            result.layout = editor.layout();
            return result;
        }
    }
    result.layout = editor.layout();
    result.ok = true;
    return result;
}

} // namespace partwise
