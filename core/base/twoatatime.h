#pragma once

#include <atomic>
#include <thread>

namespace partwise {

// Runs work(i) for every i in [0, count), two at a time: this thread and one more, each taking
// the next index. For jobs that wait on a disk or a tool more than on the CPU (a filesystem's
// map, its check), where a second one in flight costs little. work(i) touches only item i.
template <typename Work> void twoAtATime(int count, Work work)
{
    std::atomic<int> next{0};
    auto run = [&] {
        for (int i = next++; i < count; i = next++)
            work(i);
    };
    std::thread second(run);
    run();
    second.join();
}

} // namespace partwise
