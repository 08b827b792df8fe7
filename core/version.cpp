// The version string shared by both programs.
const char *partwiseVersion() { return PARTWISE_VERSION; }
