#include "cli/practicecommand.h"

#include "align/alignmentpolicy.h"
#include "base/humansize.h"
#include "cli/exitstatus.h"
#include "ops/practicedisk.h"

#include <QStringList>

namespace partwise {

namespace {

QString presetNames()
{
    QStringList names;
    for (PracticePreset preset : namedPracticePresets())
        names << practicePresetName(preset);
    return names.join(QStringLiteral(", "));
}

} // namespace

int runPracticeCommand(const PracticeCommandOptions &o, QTextStream &out, QTextStream &err)
{
    if (o.list) {
        for (PracticePreset preset : namedPracticePresets())
            out << QStringLiteral("%1\t%2\n")
                       .arg(practicePresetName(preset), practicePresetLesson(preset));
        return ExitOk;
    }
    const std::optional<PracticePreset> preset = practicePresetNamed(o.preset);
    if (!preset) {
        err << "partwise-cli: no preset named '" << o.preset << "'; the presets are "
            << presetNames() << " (--list says what each shows).\n";
        return ExitBadInput;
    }
    PracticeDiskSpec spec;
    spec.path = o.image;
    spec.preset = *preset;
    if (!o.size.isEmpty()) {
        const std::optional<qint64> bytes = parseByteSize(o.size);
        if (!bytes) {
            err << "partwise-cli: --size: '" << o.size << "' is not a size such as 512m or 2g.\n";
            return ExitBadInput;
        }
        spec.sizeBytes = *bytes;
    }
    const qint64 forced = practicePresetSectorSize(*preset);
    spec.sectorSize = o.sectorSize > 0 ? o.sectorSize : (forced > 0 ? forced : 512);
    QString error;
    if (!createPracticeDisk(spec, &error)) {
        err << "partwise-cli: " << error << "\n";
        return ExitBadInput;
    }
    out << QStringLiteral("Created %1: %2, %3, %4-byte sectors.\n")
               .arg(spec.path, practicePresetTitle(*preset), humanSize(spec.sizeBytes))
               .arg(spec.sectorSize);
    out << QStringLiteral("It shows %1.\nTry: partwise-cli check %2\n")
               .arg(practicePresetLesson(*preset), spec.path);
    return ExitOk;
}

} // namespace partwise
