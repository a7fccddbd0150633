// libcurl, loaded on the first call instead of at every start.
//
// On Linux, FoundationNetworking's URLSession is built on libcurl. Linked statically (the release drinkshop,
// `-static-stdlib`), it made libcurl.so.4 a load-time dependency, and with it some thirty libraries (TLS,
// Kerberos, LDAP, IDN, compression): about 7 of the 10 ms a bare start took, paid by every command although
// only a client of a remote base or a webhook ever makes a request. Here, in that build only (Package.swift
// defines CURL_ON_DEMAND; its Swift modules are compiled without autolinking curl), each libcurl function
// FoundationNetworking calls is defined as a small function that loads libcurl.so.4 once, on first use
// (dlopen, RTLD_LOCAL), and calls the library's own. These definitions are hidden: they satisfy the static
// link and are not exported, so libcurl's own calls never come back here.
//
// A machine without libcurl.so.4 starts and serves every command that makes no request. A process that will
// make requests asks `drinkshop_http_unavailable` at its start and refuses, naming the library (`serve` starts
// without webhook pings); only a request made without asking ends the process with that message (URLSession has
// no way to report it as an error).
#ifdef CURL_ON_DEMAND

#include "CurlOnDemand.h"

#define _GNU_SOURCE  // program_invocation_short_name
#include <dlfcn.h>
#include <errno.h>  // program_invocation_short_name
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

#define HIDDEN __attribute__((visibility("hidden")))

// libcurl's option numbers carry their argument's type: CURLOPTTYPE_LONG 0, OBJECTPOINT and
// FUNCTIONPOINT 10000 and 20000 (pointers), OFF_T 30000 (curl_off_t, 64 bits), BLOB 40000 (a pointer).
#define CURLOPTTYPE_OBJECTPOINT 10000
#define CURLOPTTYPE_OFF_T 30000
#define CURLOPTTYPE_BLOB 40000

typedef int (*variadic_fn)(void *, int, ...);

struct library {
    void *library;
    int (*global_init)(long);
    void *(*easy_init)(void);
    void (*easy_cleanup)(void *);
    variadic_fn easy_setopt;
    variadic_fn easy_getinfo;
    int (*easy_pause)(void *, int);
    const char *(*easy_strerror)(int);
    void (*free)(void *);
    void *(*multi_init)(void);
    int (*multi_cleanup)(void *);
    int (*multi_add_handle)(void *, void *);
    int (*multi_remove_handle)(void *, void *);
    int (*multi_assign)(void *, int, void *);
    void *(*multi_info_read)(void *, int *);
    variadic_fn multi_setopt;
    int (*multi_socket_action)(void *, int, int, int *);
    void *(*slist_append)(void *, const char *);
    void (*slist_free_all)(void *);
    void *(*url)(void);
    int (*url_get)(void *, int, char **, unsigned int);
    int (*url_set)(void *, int, const char *, unsigned int);
    char *(*version)(void);
    void *(*version_info)(int);
};

static struct library curl;

static pthread_once_t loaded = PTHREAD_ONCE_INIT;

static void fail(const char *what, const char *detail) {
    fprintf(stderr, "%s: HTTP requests need libcurl (libcurl.so.4), and %s: %s. "
            "Install it (Debian: apt-get install libcurl4) and start again.\n",
            program_invocation_short_name, what, detail ? detail : "unknown error");
    _exit(69);  // EX_UNAVAILABLE
}

static void *find(const char *name) {
    void *function = dlsym(curl.library, name);
    if (!function) fail("a function it should have is missing", name);
    return function;
}

static void load(void) {
    curl.library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!curl.library) fail("it could not be loaded", dlerror());
    curl.global_init = find("curl_global_init");
    curl.easy_init = find("curl_easy_init");
    curl.easy_cleanup = find("curl_easy_cleanup");
    curl.easy_setopt = find("curl_easy_setopt");
    curl.easy_getinfo = find("curl_easy_getinfo");
    curl.easy_pause = find("curl_easy_pause");
    curl.easy_strerror = find("curl_easy_strerror");
    curl.free = find("curl_free");
    curl.multi_init = find("curl_multi_init");
    curl.multi_cleanup = find("curl_multi_cleanup");
    curl.multi_add_handle = find("curl_multi_add_handle");
    curl.multi_remove_handle = find("curl_multi_remove_handle");
    curl.multi_assign = find("curl_multi_assign");
    curl.multi_info_read = find("curl_multi_info_read");
    curl.multi_setopt = find("curl_multi_setopt");
    curl.multi_socket_action = find("curl_multi_socket_action");
    curl.slist_append = find("curl_slist_append");
    curl.slist_free_all = find("curl_slist_free_all");
    curl.url = find("curl_url");
    curl.url_get = find("curl_url_get");
    curl.url_set = find("curl_url_set");
    curl.version = find("curl_version");
    curl.version_info = find("curl_version_info");
}

static struct library *loaded_library(void) {
    pthread_once(&loaded, load);
    return &curl;
}

#define LOADED loaded_library()

HIDDEN int curl_global_init(long flags) { return LOADED->global_init(flags); }
HIDDEN void *curl_easy_init(void) { return LOADED->easy_init(); }
HIDDEN void curl_easy_cleanup(void *handle) { LOADED->easy_cleanup(handle); }
HIDDEN int curl_easy_pause(void *handle, int mask) { return LOADED->easy_pause(handle, mask); }
HIDDEN const char *curl_easy_strerror(int code) { return LOADED->easy_strerror(code); }
HIDDEN void curl_free(void *pointer) { LOADED->free(pointer); }
HIDDEN void *curl_multi_init(void) { return LOADED->multi_init(); }
HIDDEN int curl_multi_cleanup(void *multi) { return LOADED->multi_cleanup(multi); }
HIDDEN int curl_multi_add_handle(void *multi, void *easy) { return LOADED->multi_add_handle(multi, easy); }
HIDDEN int curl_multi_remove_handle(void *multi, void *easy) { return LOADED->multi_remove_handle(multi, easy); }
HIDDEN int curl_multi_assign(void *multi, int socket, void *pointer) { return LOADED->multi_assign(multi, socket, pointer); }
HIDDEN void *curl_multi_info_read(void *multi, int *queued) { return LOADED->multi_info_read(multi, queued); }
HIDDEN int curl_multi_socket_action(void *multi, int socket, int mask, int *running) {
    return LOADED->multi_socket_action(multi, socket, mask, running);
}
HIDDEN void *curl_slist_append(void *list, const char *text) { return LOADED->slist_append(list, text); }
HIDDEN void curl_slist_free_all(void *list) { LOADED->slist_free_all(list); }
HIDDEN void *curl_url(void) { return LOADED->url(); }
HIDDEN int curl_url_get(void *url, int part, char **text, unsigned int flags) { return LOADED->url_get(url, part, text, flags); }
HIDDEN int curl_url_set(void *url, int part, const char *text, unsigned int flags) { return LOADED->url_set(url, part, text, flags); }
HIDDEN char *curl_version(void) { return LOADED->version(); }
HIDDEN void *curl_version_info(int age) { return LOADED->version_info(age); }

// The three variadic functions take one argument after the option, of the type the option's number says.
static int forward_option(variadic_fn function, void *handle, int option, va_list arguments) {
    if (option < CURLOPTTYPE_OBJECTPOINT) return function(handle, option, va_arg(arguments, long));
    if (option >= CURLOPTTYPE_OFF_T && option < CURLOPTTYPE_BLOB)
        return function(handle, option, va_arg(arguments, long long));
    return function(handle, option, va_arg(arguments, void *));
}

HIDDEN int curl_easy_setopt(void *handle, int option, ...) {
    va_list arguments;
    va_start(arguments, option);
    int result = forward_option(LOADED->easy_setopt, handle, option, arguments);
    va_end(arguments);
    return result;
}

HIDDEN int curl_multi_setopt(void *multi, int option, ...) {
    va_list arguments;
    va_start(arguments, option);
    int result = forward_option(LOADED->multi_setopt, multi, option, arguments);
    va_end(arguments);
    return result;
}

// Every CURLINFO is answered through a pointer.
HIDDEN int curl_easy_getinfo(void *handle, int info, ...) {
    va_list arguments;
    va_start(arguments, info);
    void *answer = va_arg(arguments, void *);
    va_end(arguments);
    return LOADED->easy_getinfo(handle, info, answer);
}

// Whether libcurl can be loaded with every function FoundationNetworking calls, asked before a process starts
// work that needs HTTP (a remote base, the gateway, webhook pings), so that it refuses at start, naming what is
// missing, instead of ending on its first request.
int drinkshop_http_unavailable(char *reason, unsigned long size) {
    static const char *const names[] = {
        "curl_global_init",
        "curl_easy_init",
        "curl_easy_cleanup",
        "curl_easy_setopt",
        "curl_easy_getinfo",
        "curl_easy_pause",
        "curl_easy_strerror",
        "curl_free",
        "curl_multi_init",
        "curl_multi_cleanup",
        "curl_multi_add_handle",
        "curl_multi_remove_handle",
        "curl_multi_assign",
        "curl_multi_info_read",
        "curl_multi_setopt",
        "curl_multi_socket_action",
        "curl_slist_append",
        "curl_slist_free_all",
        "curl_url",
        "curl_url_get",
        "curl_url_set",
        "curl_version",
        "curl_version_info"
    };
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(reason, size, "libcurl.so.4 could not be loaded: %s", dlerror());
        return -1;
    }
    for (unsigned long index = 0; index < sizeof names / sizeof names[0]; index++) {
        if (!dlsym(library, names[index])) {
            snprintf(reason, size, "libcurl.so.4 has no %s", names[index]);
            return -1;
        }
    }
    return 0;  // kept loaded: the first request finds it
}

#else

#include "CurlOnDemand.h"

int drinkshop_http_unavailable(char *reason, unsigned long size) {
    (void)reason;
    (void)size;
    return 0;  // libcurl is linked as usual
}

#endif
