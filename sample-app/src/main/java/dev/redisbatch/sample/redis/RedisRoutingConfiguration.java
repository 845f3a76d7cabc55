package dev.redisbatch.sample.redis;

import dev.redisbatch.sample.SampleProperties;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.BeansException;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.util.Assert;

/**
 * Registers the {@link RedisRouter} and routes every {@link DataRedisConnectionDetails}
 * bean (the one Spring Boot builds from {@code spring.data.redis.*}, or a
 * {@code @ServiceConnection}) through it, before any connection factory or batch pool is
 * built from it.
 *
 * @since 0.1.0
 */
@Configuration(proxyBeanMethods = false)
public class RedisRoutingConfiguration {

	@Bean(RedisRouter.BEAN_NAME)
	RedisRouter sampleRedisRouter(SampleProperties properties) {
		return new RedisRouter(properties);
	}

	@Bean
	static BeanPostProcessor sampleRedisRoutingPostProcessor() {
		return new RoutingPostProcessor();
	}

	/**
	 * Replaces connection details with routed ones, and makes them depend on the router,
	 * so that the router (and the server it may have started) stops only after every
	 * connection built from them was closed.
	 */
	static final class RoutingPostProcessor implements BeanPostProcessor, BeanFactoryAware {

		private @Nullable ConfigurableBeanFactory beanFactory;

		@Override
		public void setBeanFactory(BeanFactory beanFactory) {
			this.beanFactory = (ConfigurableBeanFactory) beanFactory;
		}

		@Override
		public Object postProcessAfterInitialization(Object bean, String beanName) throws BeansException {
			if (bean instanceof DataRedisConnectionDetails details && !(bean instanceof RoutedConnectionDetails)) {
				ConfigurableBeanFactory factory = this.beanFactory;
				Assert.state(factory != null, "No bean factory");
				RedisRouter router = factory.getBean(RedisRouter.BEAN_NAME, RedisRouter.class);
				factory.registerDependentBean(RedisRouter.BEAN_NAME, beanName);
				return router.route(details);
			}
			return bean;
		}

	}

}
