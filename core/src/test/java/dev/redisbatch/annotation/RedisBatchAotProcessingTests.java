package dev.redisbatch.annotation;

import java.lang.reflect.Proxy;
import java.util.List;

import dev.redisbatch.testsupport.EveryLine;
import org.apache.commons.pool2.impl.DefaultEvictionPolicy;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.aop.support.AopUtils;
import org.springframework.aot.generate.ClassNameGenerator;
import org.springframework.aot.generate.DefaultGenerationContext;
import org.springframework.aot.generate.InMemoryGeneratedFiles;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Role;
import org.springframework.context.aot.ApplicationContextAotGenerator;
import org.springframework.javapoet.ClassName;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What Spring's AOT processing of a plain Spring application (no Spring Boot) with
 * {@code @RedisBatch} beans registers for a native image, compared with the proxies the
 * same application really creates on the JVM: the proxy classes themselves come from
 * Spring; the methods the proxies invoke through reflection from
 * {@link RedisBatchReflectiveProcessor}.
 */
// onMethod(..).invoke(): the predicate Spring Framework 6.2 has too
@SuppressWarnings("deprecation")
@EveryLine
class RedisBatchAotProcessingTests {

	private static RuntimeHints hints;

	private static Object interfaceBased;

	private static Object classLevel;

	private static Object generic;

	@BeforeAll
	static void processAheadOfTimeThenRun() {
		DefaultGenerationContext generation = new DefaultGenerationContext(
				new ClassNameGenerator(ClassName.get(RedisBatchAotProcessingTests.class)),
				new InMemoryGeneratedFiles());
		try (AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext()) {
			context.register(Application.class);
			new ApplicationContextAotGenerator().processAheadOfTime(context, generation);
		}
		hints = generation.getRuntimeHints();
		try (AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext(Application.class)) {
			interfaceBased = context.getBean(InterfaceBasedWriter.class.getName());
			classLevel = context.getBean(ClassLevelWriter.class.getName());
			generic = context.getBean(StringWriter.class.getName());
		}
	}

	@Test
	void theJdkProxyOfABeanWithAnInterfaceIsRegisteredBySpring() {
		assertThat(Proxy.isProxyClass(interfaceBased.getClass())).isTrue();
		assertThat(RuntimeHintsPredicates.proxies().forInterfaces(interfaceBased.getClass().getInterfaces()))
			.accepts(hints);
	}

	@Test
	void theInterfaceMethodAJdkProxyInvokesIsRegistered() throws NoSuchMethodException {
		assertThat(RuntimeHintsPredicates.reflection().onMethod(Writer.class.getMethod("write", String.class)).invoke())
			.accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection()
			.onMethod(InterfaceBasedWriter.class.getMethod("write", String.class))
			.invoke()).accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection()
			.onMethod(InterfaceBasedWriter.class.getMethod("notBatched", String.class))
			.invoke()).rejects(hints);
	}

	@Test
	void theGenericInterfaceMethodAJdkProxyInvokesIsRegistered() throws NoSuchMethodException {
		assertThat(Proxy.isProxyClass(generic.getClass())).isTrue();
		assertThat(RuntimeHintsPredicates.reflection()
			.onMethod(GenericWriter.class.getMethod("write", Object.class))
			.invoke()).accepts(hints);
	}

	@Test
	void theCglibProxyOfAnAnnotatedClassAndItsPublicMethodsAreRegistered() throws NoSuchMethodException {
		assertThat(AopUtils.isCglibProxy(classLevel)).isTrue();
		assertThat(RuntimeHintsPredicates.reflection().onType(classLevel.getClass())).accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection()
			.onMethod(ClassLevelWriter.class.getMethod("write", String.class))
			.invoke()).accepts(hints);
	}

	@Test
	void theLibrarysOwnHintsAreAppliedFromAotFactories() throws NoSuchMethodException {
		assertThat(RuntimeHintsPredicates.reflection()
			.onConstructor(DefaultEvictionPolicy.class.getConstructor())
			.invoke()).accepts(hints);
	}

	@Configuration(proxyBeanMethods = false)
	static class Application {

		@Bean(name = RedisBatchAnnotationBeanPostProcessor.BEAN_NAME)
		@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
		static RedisBatchAnnotationBeanPostProcessor redisBatchAnnotationBeanPostProcessor() {
			// Neither is needed before an annotated method runs, and none runs here.
			return new RedisBatchAnnotationBeanPostProcessor(() -> {
				throw new IllegalStateException("No batch runs in this test");
			}, List::of);
		}

		@Bean(name = "dev.redisbatch.annotation.RedisBatchAotProcessingTests$InterfaceBasedWriter")
		InterfaceBasedWriter interfaceBasedWriter() {
			return new InterfaceBasedWriter();
		}

		@Bean(name = "dev.redisbatch.annotation.RedisBatchAotProcessingTests$ClassLevelWriter")
		ClassLevelWriter classLevelWriter() {
			return new ClassLevelWriter();
		}

		@Bean(name = "dev.redisbatch.annotation.RedisBatchAotProcessingTests$StringWriter")
		StringWriter stringWriter() {
			return new StringWriter();
		}

	}

	interface Writer {

		void write(String value);

		void notBatched(String value);

	}

	static class InterfaceBasedWriter implements Writer {

		@Override
		@RedisBatch(name = "aot")
		public void write(String value) {
		}

		@Override
		public void notBatched(String value) {
		}

	}

	interface GenericWriter<T> {

		void write(T value);

	}

	static class StringWriter implements GenericWriter<String> {

		@Override
		@RedisBatch
		public void write(String value) {
		}

	}

	@RedisBatch
	static class ClassLevelWriter {

		public void write(String value) {
		}

	}

}
