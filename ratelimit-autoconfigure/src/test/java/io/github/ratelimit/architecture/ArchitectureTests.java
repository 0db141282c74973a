package io.github.ratelimit.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The layering the README describes, kept true by the build: a core with no web or Spring
 * types, the adapters and storage implementations on top, and no package that needs one
 * that needs it back.
 */
class ArchitectureTests {

	private static final JavaClasses classes = new ClassFileImporter()
		.withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
		.importPackages("io.github.ratelimit");

	@Test
	void coreUsesNoSpringNoWebAndNoStorageImplementation() {
		noClasses().that()
			.resideInAnyPackage("io.github.ratelimit.core..", "io.github.ratelimit.identity..",
					"io.github.ratelimit.policy..", "io.github.ratelimit.control..", "io.github.ratelimit.storage")
			.and()
			.resideOutsideOfPackage("io.github.ratelimit.identity.security")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("org.springframework..", "jakarta.servlet..", "reactor..", "io.netty..",
					"io.github.ratelimit.web..", "io.github.ratelimit.storage.memory..",
					"io.github.ratelimit.storage.redis..", "io.github.ratelimit.autoconfigure..")
			.because("the core is the pipeline without the web; adapters and stores sit on top of it")
			.check(classes);
	}

	@Test
	void storageSpiKnowsNoBackend() {
		noClasses().that()
			.resideInAPackage("io.github.ratelimit.storage")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("io.github.bucket4j..", "io.lettuce..", "com.github.benmanes..")
			.check(classes);
	}

	@Test
	void metricsAndHealthKnowNoStorageImplementation() {
		noClasses().that()
			.resideInAnyPackage("io.github.ratelimit.metrics..", "io.github.ratelimit.actuate..")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("io.github.ratelimit.storage.memory..", "io.github.ratelimit.storage.redis..")
			.because("they report any store through the storage SPI (RemoteStore for a connection and a breaker)")
			.check(classes);
	}

	@Test
	void storageOwnsTheKeyLayout() {
		classes().that()
			.haveSimpleName("StoreKeys")
			.should()
			.resideInAPackage("io.github.ratelimit.storage")
			.check(classes);
		noClasses().that()
			.resideOutsideOfPackages("io.github.ratelimit.storage..", "io.github.ratelimit.autoconfigure..")
			.and()
			.doNotHaveFullyQualifiedName("io.github.ratelimit.core.RequestPlanner")
			.and()
			.doNotHaveFullyQualifiedName("io.github.ratelimit.core.RateLimiterBuilder")
			.and()
			.doNotHaveFullyQualifiedName("io.github.ratelimit.core.RateLimiter")
			.and()
			.doNotHaveFullyQualifiedName("io.github.ratelimit.core.LoginAttempt")
			.and()
			.doNotHaveFullyQualifiedName("io.github.ratelimit.actuate.RateLimitsEndpoint")
			.and()
			.doNotHaveFullyQualifiedName("io.github.ratelimit.core.SubjectBuckets")
			.and()
			.doNotHaveFullyQualifiedName("io.github.ratelimit.core.BucketReader")
			.and()
			.doNotHaveFullyQualifiedName("io.github.ratelimit.core.RequestKeys")
			.should()
			.dependOnClassesThat()
			.haveFullyQualifiedName("io.github.ratelimit.storage.StoreKeys")
			.because(
					"the planner asks the key layout for a request's keys (the bucket reader and the endpoint's subject buckets for those they read, "
							+ "a login attempt for the hash of its account, the request keys for the hash of a long value); nothing else builds a key")
			.check(classes);
	}

	@Test
	void policiesComputeNoKeys() {
		noClasses().that()
			.resideInAPackage("io.github.ratelimit.policy..")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("java.security..", "io.github.ratelimit.storage..")
			.because("a policy is a limit and its scope; the fingerprints and hashes of store keys are storage's")
			.check(classes);
	}

	@Test
	void onlyTheOpenApiPackageKnowsSpringdoc() {
		noClasses().that()
			.resideOutsideOfPackages("io.github.ratelimit.openapi..", "io.github.ratelimit.autoconfigure..")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("org.springdoc..", "io.swagger..")
			.because("springdoc is optional: the limiter works without it, and only the document's customizer uses it")
			.check(classes);
	}

	@Test
	void clientCoreUsesNoHttpLibraryAndNoMicrometer() {
		noClasses().that()
			.resideInAPackage("io.github.ratelimit.client")
			.and()
			.haveNameMatching("io\\.github\\.ratelimit\\.client\\.(ClientRetrySettings|HeaderLookup|HeaderValues|"
					+ "RateLimitSignals|ProblemDetails|JsonMembers|RateLimitedException|ClientDecision|ClientEvents|"
					+ "WaitReason|GiveUpReason|RateLimitClient|ClientCall|HostState|HostStates|GiveUpMessage|"
					+ "LoggingClientEvents)(\\$.*)?")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("org.springframework..", "jakarta.servlet..", "reactor..", "io.netty..",
					"io.micrometer..", "com.fasterxml..", "tools.jackson..", "org.greenbytes..")
			.because("the client's core runs under any HTTP library; adapters sit on top, and Micrometer is optional "
					+ "(only MicrometerClientEvents needs it)")
			.check(classes);
	}

	@Test
	void packagesFormNoCycle() {
		slices().matching("io.github.ratelimit.(**)").should().beFreeOfCycles().check(classes);
	}

}
