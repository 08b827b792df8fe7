#include "overlapchooser.h"

#include "movemessages.h"
#include "moveplan.h"

namespace partwise::move {

namespace {

OverlapWay otherWay(OverlapWay way)
{
    return way == OverlapWay::JournalWindow ? OverlapWay::FlushPerShift : OverlapWay::JournalWindow;
}

} // namespace

OverlapChooser::OverlapChooser(OverlapWay asked, std::uint64_t windows, std::uint64_t piece,
                               std::uint64_t windowBytes)
    : m_asked(asked), m_windows(windows), m_piece(piece), m_windowBytes(windowBytes),
      m_measuring(asked == OverlapWay::Measure && windows >= kMinWindowsToMeasure)
{
}

OverlapWay OverlapChooser::next() const
{
    if (m_asked != OverlapWay::Measure)
        return m_asked;
    if (!m_measuring)
        return OverlapWay::FlushPerShift;
    if (!m_decided) // in turn, a flush per shift first
        return m_windowsDone % 2 == 0 ? OverlapWay::FlushPerShift : OverlapWay::JournalWindow;
    return m_confirming || m_sinceRecheck >= kRecheckEvery ? otherWay(m_chosen) : m_chosen;
}

double OverlapChooser::costOf(OverlapWay way) const
{
    const std::deque<double> &samples =
        way == OverlapWay::JournalWindow ? m_journalCosts : m_flushCosts;
    // The mean, not the best: a move pays every window, slow ones included.
    double sum = 0;
    for (const double sample : samples)
        sum += sample;
    return samples.empty() ? 0 : sum / static_cast<double>(samples.size());
}

QString OverlapChooser::windowDone(OverlapWay way, std::uint64_t bytes, double seconds)
{
    if (!m_measuring)
        return {};
    ++m_windowsDone;
    // Only whole windows: the last one's fixed costs would weigh on too few bytes.
    if (bytes >= m_windowBytes / 2 && seconds > 0) {
        std::deque<double> &samples =
            way == OverlapWay::JournalWindow ? m_journalCosts : m_flushCosts;
        samples.push_back(seconds / static_cast<double>(bytes));
        if (samples.size() > kSamplesKept)
            samples.pop_front();
    }
    if (!m_decided) {
        if (m_windowsDone < kTrialWindows || m_flushCosts.empty() || m_journalCosts.empty())
            return {};
        m_decided = true;
        m_chosen =
            costOf(OverlapWay::JournalWindow) < costOf(OverlapWay::FlushPerShift) * (1 - kMargin)
                ? OverlapWay::JournalWindow
                : OverlapWay::FlushPerShift;
        return choiceLine("chosen");
    }
    if (way == m_chosen) {
        ++m_sinceRecheck;
        return {};
    }
    // Timed again: on the newest window alone, then on the newest two.
    const std::deque<double> &samples =
        way == OverlapWay::JournalWindow ? m_journalCosts : m_flushCosts;
    const std::size_t recent = std::min<std::size_t>(m_confirming ? 2 : 1, samples.size());
    double sum = 0;
    for (std::size_t i = samples.size() - recent; i < samples.size(); ++i)
        sum += samples[i];
    const bool cheaper =
        recent > 0 && sum / static_cast<double>(recent) < costOf(m_chosen) * (1 - kMargin);
    m_sinceRecheck = 0;
    if (!m_confirming && cheaper) {
        m_confirming = true;
        return {};
    }
    m_confirming = false;
    if (!cheaper)
        return {};
    m_chosen = way;
    return choiceLine("changed");
}

QString OverlapChooser::perWindow(double secondsPerByte) const
{
    return QStringLiteral("%1 ms").arg(secondsPerByte * static_cast<double>(m_windowBytes) * 1000,
                                       0, 'f', 0);
}

QString OverlapChooser::choiceLine(const char *how) const
{
    const double flush = costOf(OverlapWay::FlushPerShift);
    const double journal = costOf(OverlapWay::JournalWindow);
    const QString timed = QStringLiteral("a %1 window took %2 with a flush per %3 shift, %4 "
                                         "journaled (timed on this move's windows)")
                              .arg(formatSize(m_windowBytes), perWindow(flush), formatSize(m_piece),
                                   perWindow(journal));
    if (m_chosen == OverlapWay::JournalWindow)
        return QStringLiteral("Overlapping data, way %1: each window journaled first, as %2.")
            .arg(QLatin1String(how), timed);
    return QStringLiteral("Overlapping data, way %1: a flush per shift, as %2 (journaling must "
                          "save %3 %).")
        .arg(QLatin1String(how), timed)
        .arg(static_cast<int>(kMargin * 100));
}

QString OverlapChooser::startNote() const
{
    if (m_asked == OverlapWay::FlushPerShift)
        return QStringLiteral("Overlapping data: moved in %1 steps, each flushed before the next "
                              "(the way set for this move).")
            .arg(formatSize(m_piece));
    if (m_asked == OverlapWay::JournalWindow)
        return QStringLiteral("Overlapping data: each %1 window saved to the journal before it is "
                              "written (the way set for this move).")
            .arg(formatSize(m_windowBytes));
    if (!m_measuring)
        return QStringLiteral("Overlapping data: moved in %1 steps, each flushed before the next "
                              "(a move this small is not timed against journaling).")
            .arg(formatSize(m_piece));
    return QStringLiteral("Overlapping data: the first %1 windows go by a flush per %2 shift and "
                          "journaled in turn, timed; the move goes on the cheaper way.")
        .arg(kTrialWindows)
        .arg(formatSize(m_piece));
}

} // namespace partwise::move
