package dev.redisbatch.autobatch;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;
import java.util.Arrays;

import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import org.junit.jupiter.api.Test;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.beans.factory.aot.AotServices;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The hints auto-batching registers for a native image, checked against the proxy it
 * really creates: client resources with auto-batching are a JDK proxy whose interfaces
 * are registered, and every method it may pass on with {@code Method.invoke} is
 * registered for invocation. No server.
 */
// onMethod(..).invoke(): the predicate Spring Framework 6.2 has too
@SuppressWarnings("deprecation")
class AutoBatchingRuntimeHintsTests {

	private final RuntimeHints hints = registered();

	@Test
	void theClientResourcesWithAutoBatchingAreARegisteredProxy() {
		ClientResources resources = DefaultClientResources.create();
		try {
			ClientResources wrapped = AutoBatching.defaults().clientResources(resources);

			assertThat(Proxy.isProxyClass(wrapped.getClass())).isTrue();
			assertThat(RuntimeHintsPredicates.proxies().forInterfaces(wrapped.getClass().getInterfaces()))
				.accepts(this.hints);
		}
		finally {
			resources.shutdown();
		}
	}

	@Test
	void everyMethodTheProxyCanPassOnMayBeInvokedReflectively() {
		assertThat(Arrays.stream(ClientResources.class.getMethods())
			.filter((method) -> !Modifier.isStatic(method.getModifiers())))
			.isNotEmpty()
			.allSatisfy((Method method) -> assertThat(RuntimeHintsPredicates.reflection().onMethod(method).invoke())
				.as(method.toString())
				.accepts(this.hints));
	}

	@Test
	void theHintsAreFoundBySpringsAotProcessing() {
		assertThat(AotServices.factories().load(RuntimeHintsRegistrar.class))
			.anySatisfy((registrar) -> assertThat(registrar).isInstanceOf(AutoBatchingRuntimeHints.class));
	}

	private static RuntimeHints registered() {
		RuntimeHints hints = new RuntimeHints();
		new AutoBatchingRuntimeHints().registerHints(hints, AutoBatchingRuntimeHintsTests.class.getClassLoader());
		return hints;
	}

}
