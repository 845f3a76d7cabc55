package dev.redisbatch.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The CPU time of this JVM, split by the role of each thread: the threads that call the
 * client (JMH's workers), the event loops that move its bytes (Netty's, as Lettuce and
 * Redisson name them), and the rest (other Java threads, and the JVM's own: GC, JIT).
 * <p>
 * The process total comes from the operating system and includes every thread that ever
 * ran; it moves in the system's clock ticks (10 ms on Linux), so each reading of it is
 * within a tick, a small error on an iteration of half a second or more, which averages
 * out over iterations. The caller and loop times are per thread ({@code ThreadMXBean}, to
 * the nanosecond): a thread that dies between two readings loses its time from its role,
 * and the process total keeps it, so it shows up as "other". The callers and the event
 * loops of a benchmark live for its whole trial.
 */
final class CpuClock {

	private final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory
		.getThreadMXBean();

	private final com.sun.management.OperatingSystemMXBean os = (com.sun.management.OperatingSystemMXBean) ManagementFactory
		.getOperatingSystemMXBean();

	private final Map<Long, Role> roles = new HashMap<>();

	CpuClock() {
		if (!this.threads.isThreadCpuTimeEnabled()) {
			this.threads.setThreadCpuTimeEnabled(true);
		}
	}

	/**
	 * The role of a thread, by its name.
	 * @param name the thread's name
	 * @return the role
	 */
	static Role role(String name) {
		String lower = name.toLowerCase(Locale.ROOT);
		if (lower.contains("jmh-worker")) {
			return Role.CALLER;
		}
		// lettuce-nioEventLoop-4-1, lettuce-epollEventLoop-.., nioEventLoopGroup-..,
		// redisson-netty-..; not lettuce-eventExecutorLoop (Lettuce's computation pool)
		if (lower.contains("eventloop") || lower.contains("netty")) {
			return Role.LOOP;
		}
		return Role.OTHER;
	}

	/**
	 * Read the CPU time of every live thread and of the process.
	 * @return the reading
	 */
	synchronized Reading read() {
		long[] ids = this.threads.getAllThreadIds();
		long[] cpu = this.threads.getThreadCpuTime(ids);
		Map<Long, Long> byThread = new HashMap<>(ids.length * 2);
		for (int i = 0; i < ids.length; i++) {
			if (cpu[i] >= 0) {
				byThread.put(ids[i], cpu[i]);
				roleOf(ids[i]);
			}
		}
		return new Reading(byThread, this.os.getProcessCpuTime());
	}

	/**
	 * The CPU time spent between two readings, by role.
	 * @param start the earlier reading
	 * @param end the later reading
	 * @return the CPU time in nanoseconds
	 */
	synchronized Spent spent(Reading start, Reading end) {
		long caller = 0;
		long loop = 0;
		for (Map.Entry<Long, Long> thread : end.byThread().entrySet()) {
			// a thread born in between spent all of its time in between
			long delta = thread.getValue() - start.byThread().getOrDefault(thread.getKey(), 0L);
			switch (roleOf(thread.getKey())) {
				case CALLER -> caller += delta;
				case LOOP -> loop += delta;
				default -> {
				}
			}
		}
		long process = end.process() - start.process();
		return new Spent(caller, loop, Math.max(0, process - caller - loop), process);
	}

	private Role roleOf(long id) {
		return this.roles.computeIfAbsent(id, (key) -> {
			ThreadInfo info = this.threads.getThreadInfo(key);
			return (info != null) ? role(info.getThreadName()) : Role.OTHER;
		});
	}

	/**
	 * What a thread does for the client.
	 */
	enum Role {

		/**
		 * A thread that calls the client (a JMH worker): the application's thread.
		 */
		CALLER,

		/**
		 * An event loop of the client's network I/O.
		 */
		LOOP,

		/**
		 * Anything else.
		 */
		OTHER

	}

	/**
	 * The CPU time of each live thread and of the process at one moment.
	 *
	 * @param byThread nanoseconds by thread id
	 * @param process the process's nanoseconds
	 */
	record Reading(Map<Long, Long> byThread, long process) {

	}

	/**
	 * CPU time spent in an interval, in nanoseconds.
	 *
	 * @param caller by the calling threads
	 * @param loop by the event loops
	 * @param other by the rest of the process (other threads, GC, JIT, threads that died)
	 * @param process by the whole process
	 */
	record Spent(long caller, long loop, long other, long process) {

	}

}
