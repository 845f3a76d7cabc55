package dev.redisbatch;

import java.time.Duration;

import io.lettuce.core.RedisCredentials;
import io.lettuce.core.RedisCredentialsProvider;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

/**
 * A credentials provider that streams its credentials, as a provider of short-lived
 * tokens does: a new connection takes the latest, and every {@link #rotate} reaches the
 * connections that subscribed (those opened with
 * {@code ReauthenticateBehavior.ON_NEW_CREDENTIALS}).
 */
final class StreamingCredentials implements RedisCredentialsProvider {

	private final Sinks.Many<RedisCredentials> credentials = Sinks.many().replay().latest();

	StreamingCredentials(String username, String password) {
		rotate(username, password);
	}

	/**
	 * Emit new credentials.
	 */
	void rotate(String username, String password) {
		this.credentials.emitNext(RedisCredentials.just(username, password),
				Sinks.EmitFailureHandler.busyLooping(Duration.ofSeconds(1)));
	}

	@Override
	public Mono<RedisCredentials> resolveCredentials() {
		return this.credentials.asFlux().next();
	}

	@Override
	public boolean supportsStreaming() {
		return true;
	}

	@Override
	public Flux<RedisCredentials> credentials() {
		return this.credentials.asFlux();
	}

}
