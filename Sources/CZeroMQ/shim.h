// libzmq 4.3.x without draft APIs: Debian's libzmq3-dev, or Homebrew's zeromq on macOS.
#include <zmq.h>
#if defined(__linux__)
// The I/O thread's wake-up signal is an eventfd on Linux (a pipe elsewhere: ZMQSocket.swift).
#include <sys/eventfd.h>
#endif
#include <unistd.h>
