package dev.redisbatch.springbatch;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.redisbatch.testsupport.FenceRules;
import dev.redisbatch.testsupport.VersionIndependent;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/**
 * Keeps the module honest: it builds on the public API of redis-batch, knows nothing of
 * Spring Boot (there is no auto-configuration on purpose), needs only Spring Batch's
 * infrastructure (item readers and writers), never its core (jobs, steps, repositories),
 * and relies on no insides of other libraries ({@link FenceRules}). The Spring Batch 5
 * module compiles these tests with its own build of the sources, and checks that too.
 */
@VersionIndependent
class SpringBatchArchitectureTests {

	private static final JavaClasses CLASSES = new ClassFileImporter()
		.withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
		.importPackages("dev.redisbatch.springbatch");

	@Test
	void theModuleImportsNothingFromSpringBoot() {
		noClasses().should().dependOnClassesThat().resideInAPackage("org.springframework.boot..").check(CLASSES);
	}

	@Test
	void theModuleNeedsOnlySpringBatchInfrastructure() {
		noClasses().should().dependOnClassesThat().resideInAPackage("org.springframework.batch.core..").check(CLASSES);
	}

	@Test
	void theModuleUsesNoEnginePackageOfTheCore() {
		noClasses().should()
			.dependOnClassesThat()
			.resideInAnyPackage("dev.redisbatch.protocol..", "dev.redisbatch.annotation..")
			.check(CLASSES);
	}

	@Test
	void onlyTheFenceReliesOnTheInsidesOfLettuceNettyAndSpringDataRedis() {
		FenceRules.onlyTheFenceReliesOnTheInsidesOfOtherLibraries().check(CLASSES);
	}

	@Test
	void onlyTheFenceUsesReflection() {
		FenceRules.onlyTheFenceUsesReflection().check(CLASSES);
	}

}
