package dev.redisbatch.autobatch;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;

import io.lettuce.core.resource.ClientResources;
import org.jspecify.annotations.Nullable;

/**
 * Client resources with auto-batching: the application's own resources, the very same
 * event loops, timer, event bus and everything else, with only the Netty customizer
 * replaced by one that runs the application's first and then adds auto-batching.
 * <p>
 * It is a JDK proxy of {@link ClientResources} that hands every other call to the
 * resources it wraps, so it needs no change when Lettuce adds or removes a method.
 * Shutting it down shuts down those resources, once: whoever owned them still does.
 * {@code mutate()} gives a builder that keeps auto-batching.
 */
final class AutoBatchingClientResources implements InvocationHandler {

	private final ClientResources resources;

	private final AutoBatchingNettyCustomizer customizer;

	private AutoBatchingClientResources(ClientResources resources, AutoBatchingNettyCustomizer customizer) {
		this.resources = resources;
		this.customizer = customizer;
	}

	static ClientResources wrap(ClientResources resources, AutoBatching settings) {
		AutoBatchingNettyCustomizer customizer = new AutoBatchingNettyCustomizer(resources.nettyCustomizer(), settings);
		return (ClientResources) Proxy.newProxyInstance(ClientResources.class.getClassLoader(),
				new Class<?>[] { ClientResources.class }, new AutoBatchingClientResources(resources, customizer));
	}

	@Override
	public @Nullable Object invoke(Object proxy, Method method, @Nullable Object[] args) throws Throwable {
		int arguments = (args != null) ? args.length : 0;
		switch (method.getName()) {
			case "nettyCustomizer":
				if (arguments == 0) {
					return this.customizer;
				}
				break;
			case "mutate":
				if (arguments == 0) {
					return this.resources.mutate().nettyCustomizer(this.customizer);
				}
				break;
			case "equals":
				if (arguments == 1) {
					return proxy == args[0];
				}
				break;
			case "hashCode":
				if (arguments == 0) {
					return System.identityHashCode(proxy);
				}
				break;
			case "toString":
				if (arguments == 0) {
					return "ClientResources with auto-batching: " + this.resources;
				}
				break;
			default:
				break;
		}
		try {
			return method.invoke(this.resources, args);
		}
		catch (InvocationTargetException ex) {
			throw ex.getTargetException();
		}
	}

}
