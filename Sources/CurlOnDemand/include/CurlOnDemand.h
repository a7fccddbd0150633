// CurlOnDemand has no interface of its own: it defines libcurl's functions for the static release link
// (see CurlOnDemand.c). This header exists because SwiftPM gives every C target a public header directory.

/// 0 when this process can make HTTP requests (libcurl loads with every function FoundationNetworking calls);
/// otherwise -1, with why written into `reason` (at most `size` bytes, NUL-terminated).
int drinkshop_http_unavailable(char *reason, unsigned long size);
