package dev.redisbatch.autobatch;

import io.lettuce.core.resource.ClientResources;
import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;

/**
 * What auto-batching creates through JDK proxies, for a GraalVM native image: client
 * resources with auto-batching ({@link AutoBatching#clientResources}) are a JDK proxy of
 * exactly {@link ClientResources}, which hands the calls it does not answer itself to the
 * wrapped resources with {@code Method.invoke}. Registered in
 * {@code META-INF/spring/aot.factories}.
 *
 * @since 0.1.0
 */
class AutoBatchingRuntimeHints implements RuntimeHintsRegistrar {

	@Override
	public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
		hints.proxies().registerJdkProxy(ClientResources.class);
		hints.reflection().registerType(ClientResources.class, MemberCategory.INVOKE_PUBLIC_METHODS);
	}

}
