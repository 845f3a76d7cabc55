package dev.redisbatch.testsupport;

import java.util.List;
import java.util.Map;
import java.util.Set;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.lang.ArchRule;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackages;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/**
 * The fence's rules, checked by the architecture test of every module that ships (core,
 * the auto-configuration of each Spring Boot line, the Spring Batch module): only the
 * fence, {@value #FENCE}, relies on how Lettuce, Netty and Spring Data Redis work inside.
 * Everything else uses an allow-list of their public API, and no reflection.
 * <p>
 * The allow-list is what redis-batch uses today, each part public API of its library:
 * <ul>
 * <li>of Lettuce: the command interfaces ({@code io.lettuce.core.api..}), codecs, outputs
 * ({@code CommandOutput} and its subclasses), client resources, metrics, cluster topology
 * models; the client, its options, URIs, futures, exceptions and scan types; and of
 * {@code io.lettuce.core.protocol} only the public command model ({@code CommandType},
 * {@code CommandArgs}, {@code CommandKeyword}, {@code ProtocolKeyword},
 * {@code RedisCommand}). Lettuce's channel machinery ({@code CommandHandler},
 * {@code CommandEncoder}, {@code RedisStateMachine}, {@code DefaultEndpoint},
 * {@code Command}, {@code RedisChannelHandler}, {@code StatefulRedisConnectionImpl}, ...)
 * and {@code io.lettuce.core.internal} are not on it.</li>
 * <li>of Netty: its bootstrap, buffers, channel, codec, utility and concurrency packages;
 * not its transports ({@code io.netty.channel.nio}, epoll, ...) nor
 * {@code io.netty.util.internal}.</li>
 * <li>of Spring Data Redis: {@code org.springframework.data.redis.connection.lettuce},
 * whose public types are all API; its insides are private members, which only reflection
 * reaches.</li>
 * </ul>
 * The test support itself ships in no artifact and is never checked.
 *
 * @since 0.1.0
 */
public final class FenceRules {

	/**
	 * The fence: the one package that may rely on the insides of other libraries.
	 */
	public static final String FENCE = "dev.redisbatch.internals";

	private static final List<String> WATCHED = List.of("io.lettuce..", "io.netty..",
			"org.springframework.data.redis.connection.lettuce..");

	private static final List<String> ALLOWED_PACKAGES = List.of(
			// Lettuce
			"io.lettuce.core.api..", "io.lettuce.core.codec", "io.lettuce.core.output", "io.lettuce.core.resource",
			"io.lettuce.core.metrics", "io.lettuce.core.cluster.models.partitions",
			// Netty
			"io.netty.bootstrap", "io.netty.buffer", "io.netty.channel", "io.netty.handler.codec", "io.netty.util",
			"io.netty.util.concurrent",
			// Spring Data Redis
			"org.springframework.data.redis.connection.lettuce");

	/**
	 * Types of packages that hold both public API and a library's machinery, with their
	 * nested types.
	 */
	private static final Set<String> ALLOWED_TYPES = Set.of(
			// Lettuce's client, options, URIs, futures, exceptions and scans
			"io.lettuce.core.ClientOptions", "io.lettuce.core.KeyScanArgs", "io.lettuce.core.KeyScanCursor",
			"io.lettuce.core.RedisClient", "io.lettuce.core.RedisCommandExecutionException",
			"io.lettuce.core.RedisException", "io.lettuce.core.RedisFuture", "io.lettuce.core.RedisURI",
			"io.lettuce.core.ScanCursor", "io.lettuce.core.SocketOptions", "io.lettuce.core.SslOptions",
			"io.lettuce.core.SslVerifyMode", "io.lettuce.core.StaticCredentialsProvider",
			"io.lettuce.core.TimeoutOptions",
			// Lettuce's cluster client
			"io.lettuce.core.cluster.RedisClusterClient", "io.lettuce.core.cluster.ClusterClientOptions",
			"io.lettuce.core.cluster.SlotHash",
			// Lettuce's public command model
			"io.lettuce.core.protocol.CommandType", "io.lettuce.core.protocol.CommandArgs",
			"io.lettuce.core.protocol.CommandKeyword", "io.lettuce.core.protocol.ProtocolKeyword",
			"io.lettuce.core.protocol.RedisCommand");

	/**
	 * Methods that reach members the caller could not otherwise reach, or load a class by
	 * its name (the way around the allow-list), by the type that declares them; a type's
	 * subtypes count as it.
	 */
	private static final Map<String, Set<String>> REFLECTIVE_METHODS = Map.of("java.lang.reflect.AccessibleObject",
			Set.of("setAccessible", "trySetAccessible"), "java.lang.reflect.Field",
			Set.of("get", "getBoolean", "getByte", "getChar", "getShort", "getInt", "getLong", "getFloat", "getDouble",
					"set", "setBoolean", "setByte", "setChar", "setShort", "setInt", "setLong", "setFloat",
					"setDouble"),
			"java.lang.invoke.MethodHandles", Set.of("privateLookupIn"), "java.lang.invoke.MethodHandles$Lookup",
			Set.of("findClass"), "java.lang.Class", Set.of("forName"), "java.lang.ClassLoader", Set.of("loadClass"),
			"org.springframework.util.ReflectionUtils",
			Set.of("makeAccessible", "getField", "setField", "accessibleConstructor"),
			"org.springframework.util.ClassUtils", Set.of("forName", "resolveClassName"),
			"org.springframework.beans.PropertyAccessorFactory", Set.of("forDirectFieldAccess"));

	private static final List<String> REFLECTIVE_TYPES = List.of("sun.misc.Unsafe", "jdk.internal..",
			"org.springframework.beans.DirectFieldAccessor", "org.springframework.test.util.ReflectionTestUtils");

	private FenceRules() {
	}

	/**
	 * Outside the fence, classes use Lettuce, Netty and Spring Data Redis only through
	 * the allow-list of their public API.
	 * @return the rule
	 */
	public static ArchRule onlyTheFenceReliesOnTheInsidesOfOtherLibraries() {
		DescribedPredicate<JavaClass> beyondTheAllowList = DescribedPredicate.describe(
				"are Lettuce, Netty or Spring Data Redis types beyond the allow-list of FenceRules",
				FenceRules::isBeyondTheAllowList);
		return noClasses().that(outsideTheFence())
			.should()
			.dependOnClassesThat(beyondTheAllowList)
			.because("only " + FENCE + " relies on how other libraries work inside, and checks each "
					+ "assumption before it is used: anything else that needs an internal belongs there");
	}

	/**
	 * Outside the fence, no class makes another library's members accessible, reads or
	 * writes fields reflectively, or loads a class by its name.
	 * @return the rule
	 */
	public static ArchRule onlyTheFenceUsesReflection() {
		DescribedPredicate<JavaMethodCall> reflective = DescribedPredicate.describe(
				"it makes members accessible, reads or writes a field, or loads a class by name",
				FenceRules::isReflective);
		DescribedPredicate<JavaClass> reflectiveTypes = DescribedPredicate
			.describe("are " + String.join(", ", REFLECTIVE_TYPES), (type) -> matchesAny(type, REFLECTIVE_TYPES));
		return noClasses().that(outsideTheFence())
			.should()
			.callMethodWhere(reflective)
			.orShould()
			.dependOnClassesThat(reflectiveTypes)
			.because("only " + FENCE + " reaches into other libraries, and checks each assumption before it "
					+ "is used: anything else that needs reflection belongs there");
	}

	private static DescribedPredicate<JavaClass> outsideTheFence() {
		return resideOutsideOfPackages(FENCE + "..", FenceRules.class.getPackageName() + "..")
			.as("reside outside the fence (%s) and the test support", FENCE);
	}

	static boolean isBeyondTheAllowList(JavaClass type) {
		JavaClass base = type.getBaseComponentType();
		if (!matchesAny(base, WATCHED) || matchesAny(base, ALLOWED_PACKAGES)) {
			return false;
		}
		String name = base.getName();
		int nested = name.indexOf('$');
		return !ALLOWED_TYPES.contains((nested < 0) ? name : name.substring(0, nested));
	}

	static boolean isReflective(JavaMethodCall call) {
		JavaClass owner = call.getTarget().getOwner();
		String name = call.getTarget().getName();
		return REFLECTIVE_METHODS.entrySet()
			.stream()
			.anyMatch((declared) -> declared.getValue().contains(name)
					&& (owner.getName().equals(declared.getKey()) || owner.isAssignableTo(declared.getKey())));
	}

	/**
	 * Whether the type is one of the names or in one of the packages ({@code a.b} the
	 * package alone, {@code a.b..} it and its sub-packages).
	 */
	private static boolean matchesAny(JavaClass type, List<String> namesOrPackages) {
		String name = type.getName();
		String pkg = type.getPackageName();
		for (String candidate : namesOrPackages) {
			if (candidate.endsWith("..")) {
				String root = candidate.substring(0, candidate.length() - 2);
				if (pkg.equals(root) || pkg.startsWith(root + ".")) {
					return true;
				}
			}
			else if (pkg.equals(candidate) || name.equals(candidate)) {
				return true;
			}
		}
		return false;
	}

}
