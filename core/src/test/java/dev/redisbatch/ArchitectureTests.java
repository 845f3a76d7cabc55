package dev.redisbatch;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import dev.redisbatch.testsupport.FenceRules;
import dev.redisbatch.testsupport.VersionIndependent;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * Keeps the library's architecture honest: it knows nothing of Spring Boot, the API does
 * not know the annotation support built on it, auto-batching stands apart from the batch
 * engine, the wire knows nothing of batches, only the fence ({@code internals}) relies on
 * the insides of other libraries or uses reflection ({@link FenceRules}), and no two
 * packages (the root package {@code dev.redisbatch} included) depend on each other.
 */
@VersionIndependent
class ArchitectureTests {

	private static final JavaClasses CLASSES = new ClassFileImporter()
		.withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
		.importPackages("dev.redisbatch");

	@Test
	void theLibraryImportsNothingFromSpringBoot() {
		noClasses().should().dependOnClassesThat().resideInAPackage("org.springframework.boot..").check(CLASSES);
	}

	@Test
	void theApiDoesNotDependOnTheAnnotationSupport() {
		noClasses().that()
			.resideInAPackage("dev.redisbatch")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("dev.redisbatch.annotation..")
			.check(CLASSES);
	}

	@Test
	void autoBatchingNeitherUsesNorIsUsedByTheRestOfTheLibraryButTheFence() {
		noClasses().that()
			.resideInAPackage("dev.redisbatch.autobatch..")
			.should()
			.dependOnClassesThat(
					resideInAPackage("dev.redisbatch..").and(resideOutsideOfPackage("dev.redisbatch.autobatch.."))
						.and(resideOutsideOfPackage("dev.redisbatch.internals..")))
			.check(CLASSES);
		noClasses().that()
			.resideOutsideOfPackage("dev.redisbatch.autobatch..")
			.should()
			.dependOnClassesThat()
			.resideInAPackage("dev.redisbatch.autobatch..")
			.check(CLASSES);
	}

	@Test
	void theFenceImportsNothingOfRedisBatch() {
		noClasses().that()
			.resideInAPackage("dev.redisbatch.internals..")
			.should()
			.dependOnClassesThat(
					resideInAPackage("dev.redisbatch..").and(resideOutsideOfPackage("dev.redisbatch.internals..")))
			.check(CLASSES);
	}

	@Test
	void theWireUsesNothingOfRedisBatchButTheFence() {
		noClasses().that()
			.resideInAPackage("dev.redisbatch.wire..")
			.should()
			.dependOnClassesThat(
					resideInAPackage("dev.redisbatch..").and(resideOutsideOfPackage("dev.redisbatch.wire.."))
						.and(resideOutsideOfPackage("dev.redisbatch.internals..")))
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

	@Test
	void packagesHaveNoCyclesRootPackageIncluded() {
		slices().assignedFrom(new PackageSlices()).should().beFreeOfCycles().check(CLASSES);
	}

	/**
	 * One slice per package, the root package {@code dev.redisbatch} being one of them (a
	 * {@code dev.redisbatch.(**)} pattern would leave it out).
	 */
	private static final class PackageSlices implements SliceAssignment {

		@Override
		public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
			String name = javaClass.getPackageName();
			return (name.equals("dev.redisbatch") || name.startsWith("dev.redisbatch.")) ? SliceIdentifier.of(name)
					: SliceIdentifier.ignore();
		}

		@Override
		public String getDescription() {
			return "packages of dev.redisbatch";
		}

	}

}
