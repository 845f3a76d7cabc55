package dev.redisbatch.sample.concurrent;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

import dev.redisbatch.autobatch.AutoBatching;
import dev.redisbatch.sample.timing.RunGuard;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;
import org.springframework.data.redis.connection.RedisPassword;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/**
 * The concurrent scenario, without and with auto-batching: the same threads call a
 * {@code StringRedisTemplate} on a {@code LettuceConnectionFactory} of Spring Boot's
 * defaults (one shared connection), first as Boot configures it, then with the client
 * resources that {@code redis.batch.auto-batching.enabled=true} gives. Both connect where
 * the application does (through the latency proxy when one is set). One run at a time,
 * shared with the comparisons ({@link RunGuard}).
 *
 * @since 0.1.0
 */
@Component
public class AutoBatchingComparison implements DisposableBean {

	static final String WITHOUT = "auto-batching-off";

	static final String WITH = "auto-batching-on";

	private final DataRedisConnectionDetails connectionDetails;

	private final RunGuard guard;

	private final LongAdder writes = new LongAdder();

	private final LongAdder commandsWritten = new LongAdder();

	private @Nullable Side without;

	private @Nullable Side with;

	/**
	 * Create the comparison; it connects on its first run.
	 * @param connectionDetails where the application connects
	 * @param guard one run at a time
	 */
	public AutoBatchingComparison(DataRedisConnectionDetails connectionDetails, RunGuard guard) {
		this.connectionDetails = connectionDetails;
		this.guard = guard;
	}

	/**
	 * Run the scenario on both sides, each for the given time after a short warm-up.
	 * @param threads the platform threads calling at once
	 * @param duration how long each side runs
	 * @return both sides
	 */
	public ConcurrentComparison compare(int threads, Duration duration) {
		return this.guard.run("concurrent comparison", () -> {
			try {
				return run(threads, duration);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException("Interrupted", ex);
			}
		});
	}

	private synchronized ConcurrentComparison run(int threads, Duration duration) throws InterruptedException {
		Side without = side(false);
		Side with = side(true);
		Duration warmUp = Duration.ofMillis(Math.min(500, duration.toMillis() / 4 + 1));
		ConcurrentCallers.run(without.template, threads, warmUp, "sample:concurrent:");
		ConcurrentCallers off = ConcurrentCallers.run(without.template, threads, duration, "sample:concurrent:");
		ConcurrentCallers.run(with.template, threads, warmUp, "sample:concurrent:");
		long writesBefore = this.writes.sum();
		long commandsBefore = this.commandsWritten.sum();
		ConcurrentCallers on = ConcurrentCallers.run(with.template, threads, duration, "sample:concurrent:");
		long writes = this.writes.sum() - writesBefore;
		long commands = this.commandsWritten.sum() - commandsBefore;
		ConcurrentComparison.Row offRow = row(WITHOUT,
				"Boot's defaults: every command on the shared connection, written and flushed on its own", off, null);
		ConcurrentComparison.Row onRow = row(WITH,
				"redis.batch.auto-batching.enabled=true: the commands of concurrent callers leave in one write", on,
				(writes > 0) ? (double) commands / writes : null);
		return new ConcurrentComparison(threads, duration.toMillis(), List.of(offRow, onRow),
				perSecond(on) / perSecond(off));
	}

	private static ConcurrentComparison.Row row(String name, String description, ConcurrentCallers callers,
			@Nullable Double commandsPerWrite) {
		return new ConcurrentComparison.Row(name, description, callers.commands(), Math.round(perSecond(callers)),
				callers.p50Micros(), callers.p99Micros(), commandsPerWrite);
	}

	private static double perSecond(ConcurrentCallers callers) {
		return callers.commands() / (callers.nanos() / 1e9);
	}

	private Side side(boolean autoBatching) {
		Side side = autoBatching ? this.with : this.without;
		if (side == null) {
			ClientResources resources = DefaultClientResources.create();
			if (autoBatching) {
				resources = AutoBatching.builder().writeListener((commands) -> {
					this.writes.increment();
					this.commandsWritten.add(commands);
				}).build().clientResources(resources);
			}
			side = new Side(resources, this.connectionDetails);
			if (autoBatching) {
				this.with = side;
			}
			else {
				this.without = side;
			}
		}
		return side;
	}

	@Override
	public synchronized void destroy() {
		for (Side side : new Side[] { this.without, this.with }) {
			if (side != null) {
				side.close();
			}
		}
	}

	/**
	 * A connection factory of Boot's defaults on some client resources, and its template.
	 */
	private static final class Side {

		private final ClientResources resources;

		private final LettuceConnectionFactory factory;

		private final StringRedisTemplate template;

		Side(ClientResources resources, DataRedisConnectionDetails details) {
			this.resources = resources;
			DataRedisConnectionDetails.Standalone standalone = details.getStandalone();
			RedisStandaloneConfiguration server = new RedisStandaloneConfiguration(standalone.getHost(),
					standalone.getPort());
			server.setDatabase(standalone.getDatabase());
			server.setUsername(details.getUsername());
			server.setPassword(RedisPassword.of(details.getPassword()));
			this.factory = new LettuceConnectionFactory(server,
					LettuceClientConfiguration.builder().clientResources(resources).build());
			this.factory.afterPropertiesSet();
			this.factory.start();
			this.template = new StringRedisTemplate(this.factory);
		}

		void close() {
			this.factory.destroy();
			this.resources.shutdown(0, 2, TimeUnit.SECONDS);
		}

	}

}
