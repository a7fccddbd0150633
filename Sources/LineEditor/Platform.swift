// The one place that names the C library of each platform (termios, poll, signals, file descriptors).
// Re-exported so every file of the line editor sees it without repeating this block; Foundation already
// re-exports the same library to the modules that use the editor, so nothing new reaches them.
#if canImport(Glibc)
@_exported @preconcurrency import Glibc
#elseif canImport(Musl)
@_exported @preconcurrency import Musl
#elseif canImport(Darwin)
@_exported import Darwin
#endif
