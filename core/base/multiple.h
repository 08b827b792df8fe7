#pragma once

// Rounding to a multiple: the one arithmetic under every boundary Partwise computes.
//
// Grain boundaries (core/align), journal blocks (core/move), windows of the timing probe
// (core/probe) and the partitions of practice disks (core/ops) all round a non-negative count
// up or down to a multiple of a positive unit. Each folder used to carry its own copy of
// `(v + u - 1) / u * u`, and that copy wraps around silently when v is near the top of its
// type: a damaged journal field could come back as a small, plausible size. So the arithmetic
// lives here once, in the lowest folder, where every layer may use it without a cycle.
//
// What it means to be aligned (which unit, the drive's phase, the table's rules) stays in
// core/align: its boundaryAtOrAfter() and boundaryAtOrBefore() add the phase on top of these.
// Code that rounds for reasons of its own (O_DIRECT blocks of a journal) uses these directly.
//
// Values must be >= 0 and units > 0. roundUp() computes through the remainder, so it never
// overflows when the result fits; checkedRoundUp() says when the result does not fit, for
// values read from outside (the move journal's chunk count).

#include <optional>
#include <type_traits>

namespace partwise {

// The largest multiple of `unit` not above `value`.
template <typename T> constexpr T roundDown(T value, T unit)
{
    static_assert(std::is_integral_v<T>);
    return value - value % unit;
}

// The smallest multiple of `unit` not below `value`, or nothing when it does not fit in T.
template <typename T> constexpr std::optional<T> checkedRoundUp(T value, T unit)
{
    static_assert(std::is_integral_v<T>);
    const T rest = value % unit;
    if (rest == 0)
        return value;
    T result{};
    if (__builtin_add_overflow(value - rest, unit, &result))
        return std::nullopt;
    return result;
}

// The smallest multiple of `unit` not below `value`, for values whose result fits in T (sizes
// computed by Partwise itself); values read from outside go through checkedRoundUp().
template <typename T> constexpr T roundUp(T value, T unit)
{
    static_assert(std::is_integral_v<T>);
    const T rest = value % unit;
    return rest == 0 ? value : value - rest + unit;
}

} // namespace partwise
