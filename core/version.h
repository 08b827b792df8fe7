#pragma once

namespace partwise {

// The version both programs print for --version.
inline constexpr const char *kPartwiseVersion = PARTWISE_VERSION;

} // namespace partwise
