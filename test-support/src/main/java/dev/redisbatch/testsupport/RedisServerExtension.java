package dev.redisbatch.testsupport;

import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * JUnit extension that starts one real {@code redis-server} per test class on a free
 * loopback port, empties it before each test, and stops it after the class.
 * <p>
 * Tests receive it as a {@link RedisProcess} parameter of a test method, a lifecycle
 * method or the constructor. Tests that kill or reconfigure a server start their own with
 * {@link RedisProcess#start(String...)} instead.
 *
 * @since 0.1.0
 */
public final class RedisServerExtension implements BeforeEachCallback, ParameterResolver {

	private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace
		.create(RedisServerExtension.class);

	@Override
	public void beforeEach(ExtensionContext context) {
		RedisProcess server = server(context);
		if (!server.isRunning()) {
			server.restart();
		}
		server.call("FLUSHALL");
		server.call("SCRIPT", "FLUSH");
		server.call("CONFIG", "RESETSTAT");
	}

	@Override
	public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
		return parameterContext.getParameter().getType() == RedisProcess.class;
	}

	@Override
	public Object resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
		return server(extensionContext);
	}

	private static RedisProcess server(ExtensionContext context) {
		ExtensionContext classContext = classContext(context);
		return classContext.getStore(NAMESPACE)
			.getOrComputeIfAbsent(RedisProcess.class, (key) -> RedisProcess.start(), RedisProcess.class);
	}

	private static ExtensionContext classContext(ExtensionContext context) {
		ExtensionContext current = context;
		while (current.getTestMethod().isPresent() && current.getParent().isPresent()) {
			current = current.getParent().get();
		}
		return current;
	}

}
