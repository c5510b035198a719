// Debian's libzmq (libzmq3-dev, 4.3.x), without draft APIs.
#include <zmq.h>
#include <sys/eventfd.h>
#include <unistd.h>
