package dev.redisbatch.autoconfigure;

import java.beans.PropertyDescriptor;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;

import dev.redisbatch.annotation.RedisBatch;
import dev.redisbatch.annotation.RedisBatchAnnotationBeanPostProcessor;
import dev.redisbatch.testsupport.EveryLine;
import io.lettuce.core.resource.ClientResources;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.aot.generate.ClassNameGenerator;
import org.springframework.aot.generate.DefaultGenerationContext;
import org.springframework.aot.generate.GeneratedFiles.Kind;
import org.springframework.aot.generate.InMemoryGeneratedFiles;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.beans.BeanUtils;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.aot.ApplicationContextAotGenerator;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.javapoet.ClassName;

import static dev.redisbatch.autoconfigure.SpringBootLineTestSupport.boot;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Spring's AOT processing of an application with the auto-configuration and a
 * {@code @RedisBatch} bean, as {@code spring-boot:process-aot} does it for a native
 * image: what Spring Boot registers by itself (the {@code redis.batch.*} binding), and
 * that the auto-configuration's beans, the annotation's proxy and the library's own hints
 * all make it into the output.
 */
// onMethod(..).invoke(): the predicate Spring Framework 6.2 has too
@SuppressWarnings("deprecation")
@EveryLine
class RedisBatchAotTests {

	private static final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(boot().redisAutoConfiguration(), RedisBatchAutoConfiguration.class))
		.withUserConfiguration(WriterConfiguration.class);

	private static final InMemoryGeneratedFiles generated = new InMemoryGeneratedFiles();

	private static RuntimeHints hints;

	@BeforeAll
	static void processAheadOfTime() {
		DefaultGenerationContext generation = new DefaultGenerationContext(
				new ClassNameGenerator(ClassName.get(RedisBatchAotTests.class)), generated);
		contextRunner.prepare((context) -> new ApplicationContextAotGenerator()
			.processAheadOfTime(context.getSourceApplicationContext(GenericApplicationContext.class), generation));
		generation.writeGeneratedContent();
		hints = generation.getRuntimeHints();
	}

	@Test
	void everyRedisBatchPropertyCanBeBoundWithTheHintsSpringBootRegisters() {
		List<Method> accessors = new ArrayList<>();
		List<Class<?>> types = new ArrayList<>(List.of(RedisBatchProperties.class));
		types.addAll(List.of(RedisBatchProperties.class.getDeclaredClasses()));
		for (Class<?> type : types) {
			assertThat(RuntimeHintsPredicates.reflection().onType(type)).accepts(hints);
			for (PropertyDescriptor property : BeanUtils.getPropertyDescriptors(type)) {
				if (property.getReadMethod() != null && property.getReadMethod().getDeclaringClass() == type) {
					accessors.add(property.getReadMethod());
				}
				if (property.getWriteMethod() != null) {
					accessors.add(property.getWriteMethod());
				}
			}
		}
		assertThat(types).hasSize(7);
		assertThat(accessors).hasSizeGreaterThan(20)
			.allSatisfy((method) -> assertThat(RuntimeHintsPredicates.reflection().onMethod(method).invoke())
				.as(method.toString())
				.accepts(hints));
	}

	@Test
	void theAutoConfiguredBeansAreGeneratedAsCode() {
		assertThat(generatedSource(RedisBatchAutoConfiguration.class))
			.contains("getRedisBatchConnectionPoolBeanDefinition");
		// the templates of every Spring Boot line, and the nested annotation
		// configuration
		assertThat(generatedSource(BatchTemplatesConfiguration.class)).contains("getStringBatchTemplateBeanDefinition")
			.contains("getBatchTemplateBeanDefinition")
			.contains(RedisBatchAnnotationBeanPostProcessor.class.getSimpleName());
	}

	@Test
	void theProxyOfAnAnnotatedBeanIsPreparedAtBuildTime() throws NoSuchMethodException {
		// the CGLIB subclass is generated now, and registered with the methods it invokes
		assertThat(generated.getGeneratedFiles(Kind.CLASS)
			.keySet()
			.stream()
			.filter((path) -> path.startsWith(Writer.class.getName().replace('.', '/') + "$$SpringCGLIB$$")))
			.hasSize(1);
		assertThat(RuntimeHintsPredicates.reflection().onMethod(Writer.class.getMethod("write", int.class)).invoke())
			.accepts(hints);
	}

	@Test
	void theLibrarysHintsAreIncluded() {
		assertThat(RuntimeHintsPredicates.proxies().forInterfaces(RedisConnection.class, Serializable.class))
			.accepts(hints);
		assertThat(RuntimeHintsPredicates.proxies().forInterfaces(ClientResources.class)).accepts(hints);
	}

	private static String generatedSource(Class<?> configuration) {
		String path = configuration.getName().replace('.', '/') + "__BeanDefinitions.java";
		try {
			String source = generated.getGeneratedFileContent(Kind.SOURCE, path);
			assertThat(source).as("%s in %s", path, generated.getGeneratedFiles(Kind.SOURCE).keySet()).isNotNull();
			return source;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	@Configuration(proxyBeanMethods = false)
	static class WriterConfiguration {

		@Bean
		Writer writer(StringRedisTemplate redisTemplate) {
			return new Writer(redisTemplate);
		}

	}

	static class Writer {

		private final StringRedisTemplate redisTemplate;

		Writer(StringRedisTemplate redisTemplate) {
			this.redisTemplate = redisTemplate;
		}

		@RedisBatch
		public void write(int count) {
			for (int i = 0; i < count; i++) {
				this.redisTemplate.opsForValue().set("aot:" + i, "value");
			}
		}

	}

}
