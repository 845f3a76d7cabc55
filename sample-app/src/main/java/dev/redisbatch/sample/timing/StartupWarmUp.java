package dev.redisbatch.sample.timing;

import java.time.Duration;
import java.util.List;

import dev.redisbatch.sample.SampleProperties;
import dev.redisbatch.sample.redis.RedisRouter;
import dev.redisbatch.sample.strategy.DemoData;
import dev.redisbatch.sample.strategy.DemoStrategy;
import dev.redisbatch.sample.strategy.Deadline;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.stereotype.Component;

/**
 * Runs every strategy a few times at startup, on keys under {@code sample:warm-up:} that
 * expire after a minute, without the simulated round trip. The first comparison then
 * times Redis and the network, not JIT compilation and connection setup. Turn it off with
 * {@code sample.warm-up=false}.
 *
 * @since 0.1.0
 */
@Component
public class StartupWarmUp implements ApplicationRunner {

	private static final Logger logger = LoggerFactory.getLogger(StartupWarmUp.class);

	private static final int KEYS = 1000;

	private static final int ROUNDS = 3;

	private static final Duration TTL = Duration.ofMinutes(1);

	private static final Duration BUDGET_PER_STRATEGY = Duration.ofSeconds(1);

	private final List<DemoStrategy> strategies;

	private final RedisRouter router;

	private final SampleProperties properties;

	/**
	 * Create the warm-up.
	 * @param strategies every strategy
	 * @param router the simulated round trip, set to zero during the warm-up
	 * @param properties whether to warm up
	 */
	public StartupWarmUp(List<DemoStrategy> strategies, RedisRouter router, SampleProperties properties) {
		this.strategies = List.copyOf(strategies);
		this.router = router;
		this.properties = properties;
	}

	@Override
	public void run(ApplicationArguments args) {
		if (!this.properties.isWarmUp()) {
			return;
		}
		long start = System.nanoTime();
		Duration roundTrip = this.router.roundTrip();
		boolean pause = this.router.isRoundTripAdjustable() && !roundTrip.isZero();
		DemoData data = DemoData.warmUp(KEYS);
		try {
			if (pause) {
				this.router.roundTrip(Duration.ZERO);
			}
			for (DemoStrategy strategy : this.strategies) {
				Deadline deadline = Deadline.after(BUDGET_PER_STRATEGY);
				for (int round = 0; round < ROUNDS && !deadline.hasPassed(); round++) {
					strategy.set(data, TTL, deadline);
					strategy.get(data.keys(), deadline);
				}
			}
			logger.info("Warmed up {} strategies in {} ms", this.strategies.size(),
					Duration.ofNanos(System.nanoTime() - start).toMillis());
		}
		catch (RuntimeException ex) {
			logger.warn("Warm-up stopped, the first comparison may be slower: {}", ex.getClass().getSimpleName());
		}
		finally {
			if (pause) {
				this.router.roundTrip(roundTrip);
			}
		}
	}

}
