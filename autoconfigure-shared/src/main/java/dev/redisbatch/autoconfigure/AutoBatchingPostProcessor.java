package dev.redisbatch.autoconfigure;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import dev.redisbatch.autobatch.AutoBatching;
import io.lettuce.core.resource.ClientResources;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.util.function.SingletonSupplier;

/**
 * Puts auto-batching on the application's {@link ClientResources} beans, whoever built
 * them:
 * <ul>
 * <li>resources Spring Boot built already have it, from the first of its
 * {@code ClientResourcesBuilderCustomizer}s, and stay as they are, unless a later
 * customizer replaced the Netty customizer;</li>
 * <li>other resources (an application's own {@code ClientResources} bean, or Boot's whose
 * Netty customizer a customizer of the application replaced) are wrapped: the same
 * resources, their Netty customizer first, then auto-batching's. Shutting the bean down
 * shuts down the resources once, as before.</li>
 * </ul>
 * It refuses a Jedis connection factory with one sentence, and warns about a Lettuce
 * connection factory whose connections it cannot reach (resources that are not a bean).
 */
final class AutoBatchingPostProcessor implements BeanPostProcessor, SmartInitializingSingleton {

	private static final Log logger = LogFactory.getLog(AutoBatchingPostProcessor.class);

	private static final String JEDIS_CONNECTION_FACTORY = "org.springframework.data.redis.connection.jedis.JedisConnectionFactory";

	private final SingletonSupplier<AutoBatching> settings;

	private final List<Map.Entry<String, LettuceConnectionFactory>> factories = new ArrayList<>();

	AutoBatchingPostProcessor(Supplier<AutoBatching> settings) {
		this.settings = SingletonSupplier.of(settings);
	}

	@Override
	public Object postProcessBeforeInitialization(Object bean, String beanName) {
		if (bean instanceof RedisConnectionFactory && isJedis(bean.getClass())) {
			throw new IllegalStateException("redis.batch.auto-batching.enabled=true needs Lettuce, but the "
					+ "RedisConnectionFactory '" + beanName + "' is a JedisConnectionFactory: "
					+ "use Lettuce (the default of spring-boot-starter-data-redis) or remove the property.");
		}
		return bean;
	}

	@Override
	public Object postProcessAfterInitialization(Object bean, String beanName) {
		if (bean instanceof ClientResources resources && !AutoBatching.isApplied(resources)) {
			return this.settings.obtain().clientResources(resources);
		}
		if (bean instanceof LettuceConnectionFactory factory) {
			this.factories.add(Map.entry(beanName, factory));
		}
		return bean;
	}

	@Override
	public void afterSingletonsInstantiated() {
		for (Map.Entry<String, LettuceConnectionFactory> factory : this.factories) {
			ClientResources resources = factory.getValue().getClientResources();
			if (resources == null || !AutoBatching.isApplied(resources)) {
				logger.warn("redis.batch.auto-batching.enabled=true, but the LettuceConnectionFactory '"
						+ factory.getKey() + "' does not use a ClientResources bean: its connections are not "
						+ "auto-batched. Give it the application's ClientResources bean.");
			}
		}
		this.factories.clear();
	}

	private static boolean isJedis(@Nullable Class<?> type) {
		for (Class<?> current = type; current != null; current = current.getSuperclass()) {
			if (current.getName().equals(JEDIS_CONNECTION_FACTORY)) {
				return true;
			}
		}
		return false;
	}

}
