package dev.redisbatch.testsupport;

import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * JUnit extension that starts one local Redis Cluster (3 masters, 3 replicas) for the
 * whole test run, shares it across test classes, waits until it is healthy and empties it
 * before each test, and stops it when the run ends.
 * <p>
 * Tests receive it as a {@link RedisCluster} parameter. A test that moves slots leaves
 * the cluster healthy; a test that kills nodes starts a cluster of its own with
 * {@link RedisCluster#start(int, int)}.
 *
 * @since 0.1.0
 */
public final class RedisClusterExtension implements BeforeEachCallback, ParameterResolver {

	private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace
		.create(RedisClusterExtension.class);

	@Override
	public void beforeEach(ExtensionContext context) {
		RedisCluster cluster = cluster(context);
		cluster.awaitHealthy();
		cluster.flushAll();
	}

	@Override
	public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
		return parameterContext.getParameter().getType() == RedisCluster.class;
	}

	@Override
	public Object resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
		return cluster(extensionContext);
	}

	private static RedisCluster cluster(ExtensionContext context) {
		return context.getRoot()
			.getStore(NAMESPACE)
			.getOrComputeIfAbsent(RedisCluster.class, (key) -> RedisCluster.start(3, 1), RedisCluster.class);
	}

}
