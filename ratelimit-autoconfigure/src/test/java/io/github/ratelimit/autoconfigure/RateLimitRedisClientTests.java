package io.github.ratelimit.autoconfigure;

import java.time.Duration;
import java.util.List;

import io.lettuce.core.ClientOptions.DisconnectedBehavior;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions.RefreshTrigger;
import io.lettuce.core.cluster.RedisClusterClient;
import io.micrometer.observation.ObservationRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;
import org.springframework.boot.data.redis.autoconfigure.observation.LettuceObservationAutoConfiguration;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.RedisStaticMasterReplicaConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import io.github.ratelimit.test.redis.RedisServerProcess;
import io.github.ratelimit.test.redis.RedisTestServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatRuntimeException;
import static org.assertj.core.api.Assumptions.assumeThat;

/**
 * The stores' own Lettuce client reaches the Redis the application configured, without
 * the application's command tracing and with options fit for a request path.
 */
class RateLimitRedisClientTests {

	private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(DataRedisAutoConfiguration.class, LettuceObservationAutoConfiguration.class,
						RateLimitRedisAutoConfiguration.class, RateLimitAutoConfiguration.class))
		.withUserConfiguration(Observations.class);

	@Test
	void withActuatorsObservationTheStoresCommandsAreNotTracedAndShareTheApplicationsEventLoops() {
		this.runner.withPropertyValues("spring.data.redis.url=" + RedisTestServer.url()).run((context) -> {
			RedisClient application = (RedisClient) context.getBean(LettuceConnectionFactory.class)
				.getRequiredNativeClient();
			RedisClient own = (RedisClient) context.getBean(RateLimitRedisClient.class).client();
			assertThat(application.getResources().tracing().isEnabled()).as("the application's tracing").isTrue();
			assertThat(own.getResources().tracing().isEnabled()).as("the stores' tracing").isFalse();
			assertThat(own.getResources().eventLoopGroupProvider())
				.isSameAs(application.getResources().eventLoopGroupProvider());
			assertThat(own.getOptions().getDisconnectedBehavior()).isEqualTo(DisconnectedBehavior.REJECT_COMMANDS);
			assertThat(ping(context.getBean(RateLimitRedisClient.class))).isEqualTo("PONG");
		});
	}

	@Test
	void reachesARedisThatWantsAPasswordWithTheApplicationsCredentials() {
		assumeThat(RedisServerProcess.isAvailable()).as("redis-server on the PATH").isTrue();
		try (RedisServerProcess server = RedisServerProcess.start(List.of("--requirepass", "s3cret"))) {
			RedisStandaloneConfiguration standalone = new RedisStandaloneConfiguration("127.0.0.1", server.port());
			standalone.setPassword("s3cret");
			LettuceConnectionFactory application = new LettuceConnectionFactory(standalone);
			application.afterPropertiesSet();
			application.start();
			try (RateLimitRedisClient client = new RateLimitRedisClient(application, null)) {
				assertThat(ping(client)).isEqualTo("PONG");
			}
			finally {
				application.destroy();
			}
			standalone.setPassword("wrong");
			LettuceConnectionFactory wrong = new LettuceConnectionFactory(standalone);
			wrong.afterPropertiesSet();
			wrong.start();
			try (RateLimitRedisClient client = new RateLimitRedisClient(wrong, null)) {
				assertThatRuntimeException().isThrownBy(() -> ping(client));
			}
			finally {
				wrong.destroy();
			}
		}
	}

	@Test
	void aClusterClientRefreshesItsTopologyWhenNodesFailOrMove() {
		this.runner.withPropertyValues("spring.data.redis.cluster.nodes=127.0.0.1:" + RedisServerProcess.freePort())
			.run((context) -> {
				RedisClusterClient own = (RedisClusterClient) context.getBean(RateLimitRedisClient.class).client();
				ClusterClientOptions options = (ClusterClientOptions) own.getOptions();
				assertThat(options.getTopologyRefreshOptions().getAdaptiveRefreshTriggers()).contains(
						RefreshTrigger.PERSISTENT_RECONNECTS, RefreshTrigger.MOVED_REDIRECT,
						RefreshTrigger.UNCOVERED_SLOT, RefreshTrigger.UNKNOWN_NODE);
				assertThat(options.getTopologyRefreshOptions().isPeriodicRefreshEnabled()).isTrue();
				assertThat(options.getDisconnectedBehavior()).isEqualTo(DisconnectedBehavior.REJECT_COMMANDS);
				assertThat(own.getResources().tracing().isEnabled()).isFalse();
			});
	}

	@Test
	void aStaticMasterReplicaSetupOfBootsPropertiesWritesToItsMaster() {
		assumeThat(RedisServerProcess.isAvailable()).as("redis-server on the PATH").isTrue();
		try (RedisServerProcess master = RedisServerProcess.start();
				RedisServerProcess replica = RedisServerProcess
					.start(List.of("--replicaof", "127.0.0.1", Integer.toString(master.port())))) {
			this.runner
				.withPropertyValues("spring.data.redis.masterreplica.nodes=127.0.0.1:" + replica.port() + ",127.0.0.1:"
						+ master.port())
				.run((context) -> {
					writeThrough(context.getBean(RateLimitRedisClient.class), "rl-master-replica-properties");
					assertThat(readOnMaster(master, "rl-master-replica-properties")).isEqualTo("written");
				});
		}
	}

	@Test
	void aStaticMasterReplicaFactoryOfTheApplicationIsReadFromItsConfigurationBean() {
		assumeThat(RedisServerProcess.isAvailable()).as("redis-server on the PATH").isTrue();
		try (RedisServerProcess master = RedisServerProcess.start();
				RedisServerProcess replica = RedisServerProcess
					.start(List.of("--replicaof", "127.0.0.1", Integer.toString(master.port())))) {
			RedisStaticMasterReplicaConfiguration nodes = new RedisStaticMasterReplicaConfiguration("127.0.0.1",
					replica.port())
				.node("127.0.0.1", master.port());
			this.runner.withBean(RedisStaticMasterReplicaConfiguration.class, () -> nodes)
				.withBean(LettuceConnectionFactory.class,
						() -> new LettuceConnectionFactory(nodes, LettuceClientConfiguration.defaultConfiguration()))
				.run((context) -> {
					writeThrough(context.getBean(RateLimitRedisClient.class), "rl-master-replica-bean");
					assertThat(readOnMaster(master, "rl-master-replica-bean")).isEqualTo("written");
				});
		}
	}

	@Test
	void masterReplicaNodesOfBootsPropertiesDoNotApplyToAClusterFactory() {
		LettuceConnectionFactory cluster = new LettuceConnectionFactory(
				new RedisClusterConfiguration(List.of("127.0.0.1:" + RedisServerProcess.freePort())));
		DataRedisConnectionDetails details = new DataRedisConnectionDetails() {
			@Override
			public MasterReplica getMasterReplica() {
				return () -> List.of(new Node("127.0.0.1", 1));
			}
		};
		assertThat(RateLimitRedisClient.staticMasterReplica(cluster, null, details)).isNull();
		assertThat(RateLimitRedisClient.staticMasterReplica(new LettuceConnectionFactory(), null, details))
			.extracting((configuration) -> configuration.getNodes().get(0).getPort())
			.isEqualTo(1);
	}

	@Test
	void aClosedClientOpensNothing() {
		LettuceConnectionFactory application = new LettuceConnectionFactory(
				new RedisClusterConfiguration(List.of("127.0.0.1:" + RedisServerProcess.freePort())));
		RateLimitRedisClient client = new RateLimitRedisClient(application, null);
		client.close();
		assertThatRuntimeException().isThrownBy(client::connect).withMessageContaining("closed");
	}

	private static void writeThrough(RateLimitRedisClient client, String key) {
		StatefulConnection<byte[], byte[]> connection = client.connect();
		try {
			connection.setTimeout(Duration.ofSeconds(5));
			((StatefulRedisConnection<byte[], byte[]>) connection).sync().set(key.getBytes(), "written".getBytes());
		}
		finally {
			connection.close();
		}
	}

	private static String readOnMaster(RedisServerProcess master, String key) {
		RedisClient direct = RedisClient.create(master.url());
		try (StatefulRedisConnection<String, String> onMaster = direct.connect()) {
			return onMaster.sync().get(key);
		}
		finally {
			direct.shutdown();
		}
	}

	private static String ping(RateLimitRedisClient client) {
		StatefulConnection<byte[], byte[]> connection = client.connect();
		try {
			connection.setTimeout(Duration.ofSeconds(5));
			return ((StatefulRedisConnection<byte[], byte[]>) connection).sync().ping();
		}
		finally {
			connection.close();
		}
	}

	@Configuration(proxyBeanMethods = false)
	static class Observations {

		@Bean
		ObservationRegistry observationRegistry() {
			return ObservationRegistry.create();
		}

	}

}
