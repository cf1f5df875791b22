// delay-line: an emulated WAN link between two network namespaces, for `npm run bench:wan`.
//
//   delay-line <netns path A> <netns path B> <device> <one-way delay µs> <loss ppm> <rate B/s|0>
//              <seed>
//
// Opens a TUN device named <device> inside each namespace (setns into the namespace file, e.g.
// /run/netns/<name>), then moves raw IP packets between the two: every packet read from one
// device is written to the other once its release time has come. Each direction has its own
// FIFO queue; the delay is fixed, so release times within a queue never decrease and the FIFO
// is the queue sorted by release time. One thread, epoll over the two TUN fds and a timerfd
// armed (absolute, CLOCK_MONOTONIC, nanoseconds) for the earliest release: no per-packet sleep.
//
// Loss: each packet is dropped on arrival with probability <loss ppm> / 1e6, independently
// each way (xorshift64*, seeded, so a run can be repeated). Rate cap: a packet leaves no
// earlier than the previous one of its direction plus its serialization time at <rate>; a
// queue that is full drops at the tail. Delay 0 and rate 0 forward at once: a plain link.
//
// Prints "ready" on stdout once both devices exist; the caller then configures them (they are
// not persistent, so they disappear with this process). On SIGUSR1 it prints one JSON line of
// counters on stdout and goes on (the caller takes differences around one measurement); on
// SIGTERM/SIGINT it prints them and exits 0.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/if.h>
#include <linux/if_tun.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

// Largest IP packet accepted from a TUN device; the bench keeps the MTU at 1500.
#define SLOT_BYTES 2048
// Packets queued per direction before tail drop: 16384 × 1500 B = 24 MiB in flight one way,
// above the bandwidth-delay product of any cell the bench runs (100 ms × 200 MiB/s = 20 MiB).
#define QUEUE_SLOTS 16384
// Packets read from one device before the loop looks at the other and at the clock.
#define READ_BATCH 64
#define NS_PER_S 1000000000ULL
#define PPM 1000000ULL

struct packet {
  uint64_t release_ns;
  uint32_t length;
  unsigned char data[SLOT_BYTES];
};

struct direction {
  int in_fd;
  int out_fd;
  struct packet *slots; // ring of QUEUE_SLOTS
  uint32_t head;
  uint32_t count;
  uint64_t last_release_ns;
  // Counters, printed at exit.
  uint64_t packets_in;
  uint64_t bytes_in;
  uint64_t packets_out;
  uint64_t bytes_out;
  uint64_t lost;
  uint64_t queue_full;
  uint64_t write_errors;
  uint32_t max_queued;
};

static uint64_t delay_ns;
static uint64_t loss_ppm;
static uint64_t rate_bytes_per_s;
static uint64_t rng_state;

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * NS_PER_S + (uint64_t)ts.tv_nsec;
}

static uint64_t next_random(void) {
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return rng_state * 0x2545F4914F6CDD1DULL;
}

static void die(const char *what) {
  fprintf(stderr, "delay-line: %s: %s\n", what, strerror(errno));
  exit(1);
}

static int open_tun_in(const char *netns_path, const char *device) {
  int ns = open(netns_path, O_RDONLY | O_CLOEXEC);
  if (ns < 0) die(netns_path);
  if (setns(ns, CLONE_NEWNET) != 0) die("setns");
  close(ns);
  int fd = open("/dev/net/tun", O_RDWR | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) die("/dev/net/tun");
  struct ifreq ifr;
  memset(&ifr, 0, sizeof ifr);
  ifr.ifr_flags = IFF_TUN | IFF_NO_PI;
  strncpy(ifr.ifr_name, device, IFNAMSIZ - 1);
  if (ioctl(fd, TUNSETIFF, &ifr) != 0) die("TUNSETIFF");
  return fd;
}

static void send_due(struct direction *d, uint64_t now) {
  while (d->count > 0) {
    struct packet *p = &d->slots[d->head];
    if (p->release_ns > now) return;
    ssize_t written = write(d->out_fd, p->data, p->length);
    if (written == (ssize_t)p->length) {
      d->packets_out += 1;
      d->bytes_out += p->length;
    } else {
      d->write_errors += 1; // the kernel refused it: counts as a loss on the far side
    }
    d->head = (d->head + 1) % QUEUE_SLOTS;
    d->count -= 1;
  }
}

static void receive(struct direction *d) {
  for (int i = 0; i < READ_BATCH; i += 1) {
    uint32_t tail = (d->head + d->count) % QUEUE_SLOTS;
    struct packet *p = &d->slots[tail];
    // With a full queue, read into the tail slot anyway and drop: the device must be drained.
    ssize_t length = read(d->in_fd, p->data, SLOT_BYTES);
    if (length < 0) {
      if (errno == EAGAIN || errno == EINTR) return;
      die("read");
    }
    uint64_t arrived = now_ns();
    d->packets_in += 1;
    d->bytes_in += (uint64_t)length;
    if (loss_ppm > 0 && next_random() % PPM < loss_ppm) {
      d->lost += 1;
      continue;
    }
    if (d->count == QUEUE_SLOTS) {
      d->queue_full += 1;
      continue;
    }
    uint64_t release = arrived + delay_ns;
    if (rate_bytes_per_s > 0) {
      uint64_t serialization = (uint64_t)length * NS_PER_S / rate_bytes_per_s;
      uint64_t earliest = d->last_release_ns + serialization;
      if (release < earliest) release = earliest;
    }
    if (release < d->last_release_ns) release = d->last_release_ns; // keep the FIFO sorted
    d->last_release_ns = release;
    p->release_ns = release;
    p->length = (uint32_t)length;
    d->count += 1;
    if (d->count > d->max_queued) d->max_queued = d->count;
    if (release <= arrived) send_due(d, arrived); // delay 0: straight through
  }
}

static void print_counters(const char *name, const struct direction *d, int last) {
  printf("\"%s\":{\"packetsIn\":%llu,\"bytesIn\":%llu,\"packetsOut\":%llu,\"bytesOut\":%llu,"
         "\"lost\":%llu,\"queueFull\":%llu,\"writeErrors\":%llu,\"maxQueued\":%u}%s",
         name, (unsigned long long)d->packets_in, (unsigned long long)d->bytes_in,
         (unsigned long long)d->packets_out, (unsigned long long)d->bytes_out,
         (unsigned long long)d->lost, (unsigned long long)d->queue_full,
         (unsigned long long)d->write_errors, d->max_queued, last ? "" : ",");
}

int main(int argc, char **argv) {
  if (argc != 8) {
    fprintf(stderr,
            "usage: delay-line <netns A> <netns B> <device> <delay µs> <loss ppm> <rate B/s> "
            "<seed>\n");
    return 2;
  }
  delay_ns = strtoull(argv[4], NULL, 10) * 1000ULL;
  loss_ppm = strtoull(argv[5], NULL, 10);
  rate_bytes_per_s = strtoull(argv[6], NULL, 10);
  rng_state = strtoull(argv[7], NULL, 10) | 1ULL;

  // Signals arrive through a signalfd, so the loop never runs a handler mid-packet.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGUSR1);
  if (sigprocmask(SIG_BLOCK, &signals, NULL) != 0) die("sigprocmask");
  int signal_fd = signalfd(-1, &signals, SFD_CLOEXEC | SFD_NONBLOCK);
  if (signal_fd < 0) die("signalfd");

  int fd_a = open_tun_in(argv[1], argv[3]);
  int fd_b = open_tun_in(argv[2], argv[3]);
  struct direction ab = {.in_fd = fd_a, .out_fd = fd_b};
  struct direction ba = {.in_fd = fd_b, .out_fd = fd_a};
  ab.slots = malloc(sizeof(struct packet) * QUEUE_SLOTS);
  ba.slots = malloc(sizeof(struct packet) * QUEUE_SLOTS);
  if (!ab.slots || !ba.slots) die("malloc");

  int timer_fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
  if (timer_fd < 0) die("timerfd_create");
  int epoll_fd = epoll_create1(EPOLL_CLOEXEC);
  if (epoll_fd < 0) die("epoll_create1");
  int fds[] = {fd_a, fd_b, timer_fd, signal_fd};
  for (unsigned i = 0; i < sizeof fds / sizeof fds[0]; i += 1) {
    struct epoll_event event = {.events = EPOLLIN, .data.fd = fds[i]};
    if (epoll_ctl(epoll_fd, EPOLL_CTL_ADD, fds[i], &event) != 0) die("epoll_ctl");
  }
  printf("ready\n");
  fflush(stdout);

  uint64_t armed_ns = 0;
  for (;;) {
    struct epoll_event events[4];
    int ready = epoll_wait(epoll_fd, events, 4, -1);
    if (ready < 0) {
      if (errno == EINTR) continue;
      die("epoll_wait");
    }
    for (int i = 0; i < ready; i += 1) {
      int fd = events[i].data.fd;
      if (fd == signal_fd) {
        struct signalfd_siginfo info;
        if (read(signal_fd, &info, sizeof info) != (ssize_t)sizeof info) die("read signalfd");
        printf("{\"type\":\"counters\",");
        print_counters("aToB", &ab, 0);
        print_counters("bToA", &ba, 1);
        printf("}\n");
        fflush(stdout);
        if (info.ssi_signo != SIGUSR1) return 0;
        continue;
      }
      if (fd == timer_fd) {
        uint64_t expirations;
        ssize_t ignored = read(timer_fd, &expirations, sizeof expirations);
        (void)ignored;
        armed_ns = 0;
      }
      if (fd == fd_a) receive(&ab);
      if (fd == fd_b) receive(&ba);
    }
    uint64_t now = now_ns();
    send_due(&ab, now);
    send_due(&ba, now);
    // Arm the timer for the earliest packet still waiting, unless it already is.
    uint64_t next = 0;
    if (ab.count > 0) next = ab.slots[ab.head].release_ns;
    if (ba.count > 0) {
      uint64_t other = ba.slots[ba.head].release_ns;
      if (next == 0 || other < next) next = other;
    }
    if (next != 0 && next != armed_ns) {
      struct itimerspec when = {.it_value = {.tv_sec = (time_t)(next / NS_PER_S),
                                             .tv_nsec = (long)(next % NS_PER_S)}};
      if (timerfd_settime(timer_fd, TFD_TIMER_ABSTIME, &when, NULL) != 0) die("timerfd_settime");
      armed_ns = next;
    }
  }
}
