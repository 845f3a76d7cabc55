package dev.redisbatch.sample.redis;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;
import org.springframework.boot.ssl.SslBundle;

/**
 * Connection details that keep the configured credentials and database but connect to
 * another standalone address (the proxy or the embedded server).
 */
final class RoutedConnectionDetails implements DataRedisConnectionDetails {

	private final DataRedisConnectionDetails delegate;

	private final Standalone standalone;

	RoutedConnectionDetails(DataRedisConnectionDetails delegate, String host, int port, int database) {
		this.delegate = delegate;
		this.standalone = Standalone.of(host, port, database);
	}

	@Override
	public @Nullable String getUsername() {
		return this.delegate.getUsername();
	}

	@Override
	public @Nullable String getPassword() {
		return this.delegate.getPassword();
	}

	@Override
	public @Nullable SslBundle getSslBundle() {
		return this.delegate.getSslBundle();
	}

	@Override
	public Standalone getStandalone() {
		return this.standalone;
	}

}
