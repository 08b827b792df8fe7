#pragma once

#include "report/probereport.h"

#include <QObject>

// Something that runs the timing probe for the probe dialog: on this machine's drive in a
// thread of the window (ProbeWorker), or on a drive a helper opens (HelperProbeRunner, in
// ui/helper). Either reports progress from 0 to 1 and one result on the GUI thread, and stops
// between two writes when cancelled.
class ProbeRunner : public QObject
{
    Q_OBJECT

public:
    using QObject::QObject;

    virtual bool isBusy() const = 0;
    // Probes the drive, analyses the times and remembers the verdict for the drive.
    virtual void run() = 0;
    virtual void cancel() = 0;

signals:
    void progress(double fraction);
    void finished(const partwise::ProbeReport &report);
};
