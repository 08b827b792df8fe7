#pragma once

// Registers the icons of resources/partwise.qrc, which are compiled into partwise-ui (a
// static library, so Qt cannot do it automatically). Safe to call more than once.
void ensureUiResources();
