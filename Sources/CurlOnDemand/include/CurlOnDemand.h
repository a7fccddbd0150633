// CurlOnDemand has no interface of its own: it defines libcurl's functions for the static release link
// (see CurlOnDemand.c). This header exists because SwiftPM gives every C target a public header directory.
