package dev.redisbatch.sample;

import java.time.Duration;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import org.hibernate.validator.constraints.time.DurationMax;
import org.hibernate.validator.constraints.time.DurationMin;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * Configuration properties of the sample application.
 *
 * @since 0.1.0
 */
@ConfigurationProperties("sample")
@Validated
public class SampleProperties {

	/**
	 * Largest count the timing endpoints accept. Larger counts get HTTP 400.
	 */
	@Min(1)
	@Max(10_000_000)
	private int maxCount = 100_000;

	/**
	 * Round-trip time the latency proxy adds between the application and Redis at
	 * startup. The page can change it at runtime.
	 */
	@DurationMin(millis = 0)
	@DurationMax(millis = 300)
	private Duration simulatedRtt = Duration.ZERO;

	/**
	 * Longest time one strategy of a comparison may run. A strategy that reaches it stops
	 * and reports the commands it completed.
	 */
	@DurationMin(millis = 100)
	@DurationMax(minutes = 10)
	private Duration timeBudget = Duration.ofSeconds(15);

	/**
	 * Whether to run every strategy on a few thousand keys under "sample:warm-up:" at
	 * startup, without the simulated round trip, so that the first comparison does not
	 * time JIT compilation and connection setup.
	 */
	private boolean warmUp = true;

	@Valid
	private final Sweep sweep = new Sweep();

	private final Proxy proxy = new Proxy();

	private final EmbeddedRedis embeddedRedis = new EmbeddedRedis();

	public int getMaxCount() {
		return this.maxCount;
	}

	public void setMaxCount(int maxCount) {
		this.maxCount = maxCount;
	}

	public Duration getSimulatedRtt() {
		return this.simulatedRtt;
	}

	public void setSimulatedRtt(Duration simulatedRtt) {
		this.simulatedRtt = simulatedRtt;
	}

	public Duration getTimeBudget() {
		return this.timeBudget;
	}

	public void setTimeBudget(Duration timeBudget) {
		this.timeBudget = timeBudget;
	}

	public boolean isWarmUp() {
		return this.warmUp;
	}

	public void setWarmUp(boolean warmUp) {
		this.warmUp = warmUp;
	}

	public Sweep getSweep() {
		return this.sweep;
	}

	public Proxy getProxy() {
		return this.proxy;
	}

	public EmbeddedRedis getEmbeddedRedis() {
		return this.embeddedRedis;
	}

	/**
	 * The chunk-size sweep.
	 */
	public static class Sweep {

		/**
		 * Longest time one chunk size of the sweep may run.
		 */
		@DurationMin(millis = 100)
		@DurationMax(minutes = 10)
		private Duration pointBudget = Duration.ofSeconds(3);

		public Duration getPointBudget() {
			return this.pointBudget;
		}

		public void setPointBudget(Duration pointBudget) {
			this.pointBudget = pointBudget;
		}

	}

	/**
	 * The latency-adding TCP proxy between the application and Redis.
	 */
	public static class Proxy {

		/**
		 * Whether to route the application's Redis traffic through a latency-adding proxy
		 * on loopback, so the simulated round-trip time can be changed at runtime.
		 */
		private boolean enabled = true;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

	}

	/**
	 * The embedded Redis server started when nothing answers at the configured address.
	 */
	public static class EmbeddedRedis {

		/**
		 * Whether to start an embedded Redis server when nothing answers at the
		 * configured loopback address.
		 */
		private boolean enabled = true;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

	}

}
