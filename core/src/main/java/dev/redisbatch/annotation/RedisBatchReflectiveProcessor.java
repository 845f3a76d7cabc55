package dev.redisbatch.annotation;

import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Method;
import java.util.LinkedHashSet;
import java.util.Set;

import org.springframework.aot.hint.ExecutableMode;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.ReflectionHints;
import org.springframework.aot.hint.annotation.ReflectiveProcessor;
import org.springframework.core.BridgeMethodResolver;
import org.springframework.util.ClassUtils;

/**
 * Registers what a {@link RedisBatch @RedisBatch} proxy invokes through reflection, for a
 * GraalVM native image. Spring's AOT processing applies it to every bean class that
 * carries the annotation (see {@code @Reflective} on {@link RedisBatch}).
 * <p>
 * Spring's AOT processing already prepares the proxy itself (a JDK proxy hint, or the
 * CGLIB subclass generated at build time with hints for the bean's class). The proxy then
 * calls the bean through {@code Method.invoke} with the method it intercepted:
 * <ul>
 * <li>a JDK proxy intercepts the method of the <em>interface</em> it implements, which
 * nothing else registers, so the interface methods that an annotated method implements
 * are registered along with it;</li>
 * <li>on a class, the annotation applies to every public method, so the class and its
 * interfaces are registered with their public methods.</li>
 * </ul>
 * The same hints let the interceptor read the annotation from the method at run time.
 */
final class RedisBatchReflectiveProcessor implements ReflectiveProcessor {

	@Override
	public void registerReflectionHints(ReflectionHints hints, AnnotatedElement element) {
		if (element instanceof Class<?> type) {
			for (Class<?> declaring : withInterfaces(type)) {
				hints.registerType(declaring, MemberCategory.INVOKE_PUBLIC_METHODS);
			}
		}
		else if (element instanceof Method method) {
			hints.registerMethod(method, ExecutableMode.INVOKE);
			Class<?> type = method.getDeclaringClass();
			for (Class<?> declaring : withInterfaces(type)) {
				if (declaring == type) {
					continue;
				}
				for (Method candidate : declaring.getMethods()) {
					if (implementedBy(candidate, method)) {
						hints.registerMethod(candidate, ExecutableMode.INVOKE);
					}
				}
			}
		}
	}

	/**
	 * Whether a method of an interface is the given method when called on an instance of
	 * its class (generic bridge methods resolved).
	 */
	private static boolean implementedBy(Method interfaceMethod, Method method) {
		if (!interfaceMethod.getName().equals(method.getName())
				|| interfaceMethod.getParameterCount() != method.getParameterCount()) {
			return false;
		}
		Method specific = ClassUtils.getMostSpecificMethod(interfaceMethod, method.getDeclaringClass());
		return BridgeMethodResolver.findBridgedMethod(specific).equals(method);
	}

	/**
	 * A type and every interface it implements or extends, directly or through its
	 * superclasses.
	 */
	private static Set<Class<?>> withInterfaces(Class<?> type) {
		Set<Class<?>> all = new LinkedHashSet<>();
		all.add(type);
		for (Class<?> current = type; current != null && current != Object.class; current = current.getSuperclass()) {
			for (Class<?> itf : current.getInterfaces()) {
				addWithParents(itf, all);
			}
		}
		return all;
	}

	private static void addWithParents(Class<?> itf, Set<Class<?>> all) {
		if (all.add(itf)) {
			for (Class<?> parent : itf.getInterfaces()) {
				addWithParents(parent, all);
			}
		}
	}

}
