package dev.redisbatch.autoconfigure;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.redisbatch.testsupport.FenceRules;
import dev.redisbatch.testsupport.VersionIndependent;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfiguration;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.fields;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.methods;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/**
 * Keeps the Boot module honest: it holds the auto-configuration package and nothing else,
 * nothing in the library knows it, auto-configurations are public, final and expose
 * nothing else, and it relies on no insides of other libraries ({@link FenceRules}). The
 * library's own rules are in the core module's architecture tests.
 */
@VersionIndependent
class AutoConfigurationArchitectureTests {

	private static final JavaClasses CLASSES = new ClassFileImporter()
		.withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
		.importPackages("dev.redisbatch");

	/**
	 * This module's classes alone: the library's are core's to check.
	 */
	private static final JavaClasses MODULE = new ClassFileImporter()
		.withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
		.importPackages("dev.redisbatch.autoconfigure");

	@Test
	void theBootModuleHoldsOnlyTheAutoConfigurationPackage() {
		JavaClasses module = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
			.withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
			.importPackages("dev.redisbatch");
		classes().should().resideInAPackage("dev.redisbatch.autoconfigure").check(module);
	}

	@Test
	void nothingOutsideTheAutoConfigurationDependsOnIt() {
		noClasses().that()
			.resideOutsideOfPackage("dev.redisbatch.autoconfigure..")
			.should()
			.dependOnClassesThat()
			.resideInAPackage("dev.redisbatch.autoconfigure..")
			.check(CLASSES);
	}

	@Test
	void autoConfigurationsArePublicFinalAndExposeNothingElse() {
		classes().that()
			.areAnnotatedWith(AutoConfiguration.class)
			.should()
			.bePublic()
			.andShould()
			.haveModifier(JavaModifier.FINAL)
			.check(CLASSES);
		methods().that()
			.areDeclaredInClassesThat()
			.areAnnotatedWith(AutoConfiguration.class)
			.should()
			.notBePublic()
			.check(CLASSES);
		fields().that()
			.areDeclaredInClassesThat()
			.areAnnotatedWith(AutoConfiguration.class)
			.should()
			.notBePublic()
			.allowEmptyShould(true)
			.check(CLASSES);
	}

	@Test
	void onlyTheFenceReliesOnTheInsidesOfLettuceNettyAndSpringDataRedis() {
		FenceRules.onlyTheFenceReliesOnTheInsidesOfOtherLibraries().check(MODULE);
	}

	@Test
	void onlyTheFenceUsesReflection() {
		FenceRules.onlyTheFenceUsesReflection().check(MODULE);
	}

}
