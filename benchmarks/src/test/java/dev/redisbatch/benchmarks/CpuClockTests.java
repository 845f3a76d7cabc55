package dev.redisbatch.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The CPU clock puts each thread's time where its role says, and keeps the time of a
 * thread that died in the process's total. Threads here burn a set amount of CPU time
 * (counted, not timed). The process's total moves in clock ticks of the operating system
 * (10 ms on Linux), each reading of it within a tick.
 */
class CpuClockTests {

	private static final long BURN_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

	private static final long TWO_TICKS = TimeUnit.MILLISECONDS.toNanos(20);

	private static volatile long sink;

	@Test
	void threadsAreCallersEventLoopsOrOtherByName() {
		assertThat(CpuClock.role("dev.redisbatch.benchmarks.PeersBenchmark.batch-jmh-worker-1"))
			.isEqualTo(CpuClock.Role.CALLER);
		assertThat(CpuClock.role("lettuce-nioEventLoop-4-1")).isEqualTo(CpuClock.Role.LOOP);
		assertThat(CpuClock.role("lettuce-epollEventLoop-5-2")).isEqualTo(CpuClock.Role.LOOP);
		assertThat(CpuClock.role("nioEventLoopGroup-3-1")).isEqualTo(CpuClock.Role.LOOP);
		assertThat(CpuClock.role("redisson-netty-2-3")).isEqualTo(CpuClock.Role.LOOP);
		assertThat(CpuClock.role("lettuce-eventExecutorLoop-1-1")).isEqualTo(CpuClock.Role.OTHER);
		assertThat(CpuClock.role("lettuce-timer-3-1")).isEqualTo(CpuClock.Role.OTHER);
		assertThat(CpuClock.role("main")).isEqualTo(CpuClock.Role.OTHER);
	}

	@Test
	void theTimeOfLiveThreadsGoesToTheirRoles() throws InterruptedException {
		CpuClock clock = new CpuClock();
		CpuClock.Reading start = clock.read();
		CountDownLatch burnt = new CountDownLatch(2);
		CountDownLatch release = new CountDownLatch(1);
		Thread caller = burner("test-jmh-worker-1", burnt, release);
		Thread loop = burner("lettuce-nioEventLoop-99-1", burnt, release);
		assertThat(burnt.await(1, TimeUnit.MINUTES)).isTrue();
		CpuClock.Reading end = clock.read();
		release.countDown();
		caller.join();
		loop.join();
		CpuClock.Spent spent = clock.spent(start, end);
		assertThat(spent.caller()).isGreaterThanOrEqualTo(BURN_NANOS);
		assertThat(spent.loop()).isGreaterThanOrEqualTo(BURN_NANOS);
		assertThat(spent.process()).isGreaterThanOrEqualTo(spent.caller() + spent.loop() - TWO_TICKS);
	}

	@Test
	void theTimeOfAThreadThatDiedIsInTheProcessOnly() throws InterruptedException {
		CpuClock clock = new CpuClock();
		CpuClock.Reading start = clock.read();
		CountDownLatch burnt = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		release.countDown();
		Thread caller = burner("test-jmh-worker-2", burnt, release);
		caller.join();
		CpuClock.Spent spent = clock.spent(start, clock.read());
		assertThat(spent.caller()).isZero();
		assertThat(spent.other()).isGreaterThanOrEqualTo(BURN_NANOS - TWO_TICKS);
	}

	private static Thread burner(String name, CountDownLatch burnt, CountDownLatch release) {
		Thread thread = new Thread(() -> {
			ThreadMXBean threads = ManagementFactory.getThreadMXBean();
			long start = threads.getCurrentThreadCpuTime();
			long value = 0;
			while (threads.getCurrentThreadCpuTime() - start < BURN_NANOS) {
				for (int i = 0; i < 10_000; i++) {
					value += i * 31L ^ value;
				}
			}
			sink = value;
			burnt.countDown();
			try {
				release.await();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}, name);
		thread.start();
		return thread;
	}

}
