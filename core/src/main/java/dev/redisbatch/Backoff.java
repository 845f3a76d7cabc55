package dev.redisbatch;

import java.util.concurrent.TimeUnit;

/**
 * The wait before another attempt (a retry, a scan page again, a lost chunk sent again),
 * cut short by an interrupt.
 */
final class Backoff {

	private Backoff() {
	}

	/**
	 * Wait before another attempt.
	 * @param nanos how long to wait, in nanoseconds (0 or less: no wait)
	 * @return {@code false} when the thread was interrupted, before or during the wait
	 * (its flag stays set)
	 */
	static boolean pause(long nanos) {
		if (Thread.currentThread().isInterrupted()) {
			return false;
		}
		try {
			TimeUnit.NANOSECONDS.sleep(nanos);
			return true;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

}
