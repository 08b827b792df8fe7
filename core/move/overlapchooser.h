#pragma once

#include "moverequest.h"

#include <QString>

#include <cstdint>
#include <deque>

namespace partwise::move {

// Chooses, window by window, the way a move cut to the shift keeps its windows safe
// (OverlapWay), from the time the move's own windows take: no separate probe, whose few
// milliseconds say little on a loaded machine, and nothing written that the move would not write
// anyway. Both ways are safe at every window, so the choice may change at any window.
//
// A long enough move does its first windows both ways in turn, then goes on the way whose
// windows cost less per byte, by a clear margin; a near tie keeps a flush per shift, which
// writes every byte once. Now and then one window goes the other way again, so a change in the
// disk's load is followed: if it looks clearly cheaper, a second window confirms it before the
// move changes way. A move too short for that takes a flush per shift throughout.
class OverlapChooser
{
public:
    // `windows`: how many windows the move has (a resumed one: how many are left); `piece`: the
    // length of its chunks (the shift, in whole 4 KiB), for the log.
    OverlapChooser(OverlapWay asked, std::uint64_t windows, std::uint64_t piece,
                   std::uint64_t windowBytes);

    // The way for the next window.
    OverlapWay next() const;
    // After a window of `bytes` went `way` in `seconds`, from its sources read to its last
    // flush. Returns a line for the log when the way is chosen or changes, otherwise empty.
    QString windowDone(OverlapWay way, std::uint64_t bytes, double seconds);
    // One line for the log when the move begins: the way asked, or how it will be chosen.
    QString startNote() const;

    // Windows done each way in turn before the first choice, and the fewest windows a move
    // needs for that to pay off.
    static constexpr std::uint64_t kTrialWindows = 4;
    static constexpr std::uint64_t kMinWindowsToMeasure = 8;
    // After the choice, one window in this many goes the other way, to time it again.
    static constexpr std::uint64_t kRecheckEvery = 16;
    // Journaling a window is chosen, or a way left, only when it costs this much less.
    static constexpr double kMargin = 0.15;

private:
    static constexpr std::size_t kSamplesKept = 3;
    double costOf(OverlapWay way) const; // mean seconds per byte of its recent windows
    QString choiceLine(const char *how) const;
    QString perWindow(double secondsPerByte) const;

    OverlapWay m_asked;
    std::uint64_t m_windows;
    std::uint64_t m_piece;
    std::uint64_t m_windowBytes;
    bool m_measuring = false;
    std::uint64_t m_windowsDone = 0;
    OverlapWay m_chosen = OverlapWay::FlushPerShift;
    bool m_decided = false;
    bool m_confirming = false; // the other way looked cheaper once: timed one window more
    std::uint64_t m_sinceRecheck = 0;
    std::deque<double> m_flushCosts;
    std::deque<double> m_journalCosts;
};

} // namespace partwise::move
