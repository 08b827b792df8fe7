#include "layer/layercreator.h"

#include "layer/lvmlayer.h"

#include "device/loopattachment.h"

#include <QFileInfo>

namespace partwise {

namespace {

const QString kLuks2 = QStringLiteral("luks2");
const QString kLvmPv = QStringLiteral("lvm-pv");

QStringList luksFormatArguments(const FormatRequest &r)
{
    QStringList args{QStringLiteral("luksFormat"), QStringLiteral("--batch-mode"),
                     QStringLiteral("--type"), QStringLiteral("luks2")};
    // The data offset is a multiple of the grain (in 512-byte units, whatever the sectors).
    const qint64 grain = r.grainBytes > 0 ? r.grainBytes : (1 << 20);
    args << QStringLiteral("--align-payload") << QString::number(grain / 512);
    if (r.physicalSectorBytes >= 4096)
        args << QStringLiteral("--sector-size") << QStringLiteral("4096");
    if (!r.label.isEmpty())
        args << QStringLiteral("--label") << r.label;
    args << QStringLiteral("--key-file") << (r.keyFile.isEmpty() ? QStringLiteral("-") : r.keyFile);
    return args;
}

ToolResult luksFormat(const FormatRequest &r, const QString &target)
{
    const QStringList args = luksFormatArguments(r) << target;
    if (r.keyFile.isEmpty())
        return runToolWithInput(QStringLiteral("cryptsetup"), args,
                                QStringLiteral("cryptsetup-bin"), r.passphrase);
    return runTool(QStringLiteral("cryptsetup"), args, QStringLiteral("cryptsetup-bin"));
}

ToolResult pvcreate(const FormatRequest &r, const QString &target)
{
    const qint64 grain = r.grainBytes > 0 ? r.grainBytes : (1 << 20);
    return runTool(QStringLiteral("pvcreate"),
                   {QStringLiteral("--yes"), QStringLiteral("--force"),
                    QStringLiteral("--dataalignment"), QStringLiteral("%1k").arg(grain / 1024),
                    QStringLiteral("--config"), lvmWithoutUdevConfig(), target},
                   QStringLiteral("lvm2"));
}

} // namespace

QStringList creatableLayers()
{
    return {kLuks2, kLvmPv};
}

bool isCreatableLayer(const QString &kind)
{
    return creatableLayers().contains(kind);
}

QStringList creatableContents()
{
    return formattableFilesystems() + creatableLayers();
}

QString layerRequestProblem(const FormatRequest &request)
{
    if (request.filesystem == kLuks2 && request.keyFile.isEmpty() && request.passphrase.isEmpty())
        return QStringLiteral("A LUKS2 volume needs a passphrase: name a key file (\"key_file\" "
                              "in a plan file).");
    if (request.filesystem == kLuks2 && !request.keyFile.isEmpty() &&
        !QFileInfo(request.keyFile).isReadable())
        return QStringLiteral("The key file %1 cannot be read.").arg(request.keyFile);
    return {};
}

ToolResult createLayer(const FormatRequest &request)
{
    if (!isCreatableLayer(request.filesystem))
        return ToolResult::failed(
            QStringLiteral("Partwise cannot create a '%1' volume.").arg(request.filesystem));
    if (const QString problem = layerRequestProblem(request); !problem.isEmpty())
        return ToolResult::failed(problem);
    if (request.filesystem == kLuks2)
        // Inside an image cryptsetup formats a scratch file (it writes only the header there).
        return request.targetIsImage ? buildInScratch(request,
                                                      [&request](const QString &scratch) {
                                                          return luksFormat(request, scratch);
                                                      })
                                     : luksFormat(request, request.target);
    if (!request.targetIsImage)
        return pvcreate(request, request.target);
    // pvcreate only writes to block devices: a loop device over the image's range (root).
    LoopAttachment loop(request.target, request.offsetBytes, request.sizeBytes, false);
    if (!loop.ok())
        return ToolResult::failed(
            QStringLiteral("An LVM physical volume inside an image needs a loop device: %1")
                .arg(loop.error()));
    return pvcreate(request, loop.device());
}

} // namespace partwise
