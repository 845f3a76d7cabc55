package dev.redisbatch.sample.timing;

import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import org.springframework.web.ErrorResponseException;

/**
 * Lets one comparison or sweep run at a time: a second one is refused with HTTP 429
 * instead of doubling the load on Redis.
 *
 * @since 0.1.0
 */
@Component
public class RunGuard {

	private final AtomicReference<@Nullable String> running = new AtomicReference<>();

	/**
	 * Run the work unless other work is running.
	 * @param <T> the result type
	 * @param what what the work is, such as {@code "comparison"}, for the 429 message
	 * @param work the work
	 * @return the work's result
	 * @throws RunInProgressException if other work is running
	 */
	public <T> T run(String what, Supplier<T> work) {
		if (!this.running.compareAndSet(null, what)) {
			throw new RunInProgressException(what, this.running.get());
		}
		try {
			return work.get();
		}
		finally {
			this.running.set(null);
		}
	}

	/**
	 * What is running.
	 * @return {@code "comparison"}, {@code "sweep"}, or {@code null} when nothing runs
	 */
	public @Nullable String running() {
		return this.running.get();
	}

	/**
	 * Thrown when a comparison or sweep is asked for while another one runs.
	 */
	public static final class RunInProgressException extends ErrorResponseException {

		RunInProgressException(String what, @Nullable String running) {
			super(HttpStatus.TOO_MANY_REQUESTS);
			getBody().setTitle("A run is in progress");
			getBody().setDetail("A " + ((running != null) ? running : "run") + " is already running, so this " + what
					+ " was not started. Try again when it has finished.");
			getHeaders().set("Retry-After", "1");
		}

	}

}
