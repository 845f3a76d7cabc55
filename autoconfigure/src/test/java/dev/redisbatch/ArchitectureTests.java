package dev.redisbatch;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfiguration;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.fields;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.methods;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * Keeps the architecture honest: the API does not know the auto-configuration, only the
 * auto-configuration imports Spring Boot, packages have no cycles, and
 * auto-configurations are public, final and expose nothing else.
 */
class ArchitectureTests {

	private static final JavaClasses CLASSES = new ClassFileImporter()
		.withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
		.importPackages("dev.redisbatch");

	@Test
	void theApiDoesNotDependOnTheAutoConfigurationOrTheAnnotationSupport() {
		noClasses().that()
			.resideInAPackage("dev.redisbatch")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("dev.redisbatch.autoconfigure..", "dev.redisbatch.annotation..")
			.check(CLASSES);
	}

	@Test
	void onlyTheAutoConfigurationImportsSpringBoot() {
		noClasses().that()
			.resideOutsideOfPackage("dev.redisbatch.autoconfigure..")
			.should()
			.dependOnClassesThat()
			.resideInAPackage("org.springframework.boot..")
			.check(CLASSES);
	}

	@Test
	void packagesHaveNoCycles() {
		slices().matching("dev.redisbatch.(**)").should().beFreeOfCycles().check(CLASSES);
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

}
