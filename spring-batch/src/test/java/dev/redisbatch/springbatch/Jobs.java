package dev.redisbatch.springbatch;

import javax.sql.DataSource;

import org.springframework.batch.core.job.Job;
import org.springframework.batch.core.job.JobExecution;
import org.springframework.batch.core.job.parameters.JobParameters;
import org.springframework.batch.core.launch.JobOperator;
import org.springframework.batch.core.configuration.support.MapJobRegistry;
import org.springframework.batch.core.launch.support.TaskExecutorJobOperator;
import org.springframework.batch.core.repository.JobRepository;
import org.springframework.batch.core.repository.support.JdbcJobRepositoryFactoryBean;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabase;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseBuilder;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseType;
import org.springframework.jdbc.support.JdbcTransactionManager;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * Spring Batch's JDBC job repository on an in-memory H2 database (restarts need the
 * executions of earlier runs, which the resourceless repository does not keep), and an
 * operator that runs jobs on the calling thread.
 */
final class Jobs implements AutoCloseable {

	private final EmbeddedDatabase database;

	private final JdbcTransactionManager transactionManager;

	private final JobRepository repository;

	private final JobOperator operator;

	private Jobs() throws Exception {
		this.database = new EmbeddedDatabaseBuilder().generateUniqueName(true)
			.setType(EmbeddedDatabaseType.H2)
			.addScript("/org/springframework/batch/core/schema-h2.sql")
			.build();
		this.transactionManager = new JdbcTransactionManager(this.database);
		JdbcJobRepositoryFactoryBean repositoryFactory = new JdbcJobRepositoryFactoryBean();
		repositoryFactory.setDataSource(this.database);
		repositoryFactory.setTransactionManager(this.transactionManager);
		repositoryFactory.afterPropertiesSet();
		this.repository = repositoryFactory.getObject();
		TaskExecutorJobOperator operator = new TaskExecutorJobOperator();
		operator.setJobRepository(this.repository);
		operator.setJobRegistry(new MapJobRegistry());
		operator.afterPropertiesSet();
		this.operator = operator;
	}

	static Jobs inMemory() {
		try {
			return new Jobs();
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	JobRepository repository() {
		return this.repository;
	}

	PlatformTransactionManager transactionManager() {
		return this.transactionManager;
	}

	DataSource dataSource() {
		return this.database;
	}

	JobExecution start(Job job, JobParameters parameters) {
		try {
			return this.operator.start(job, parameters);
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * Run a job again with the parameters of a failed execution: Spring Batch restarts
	 * the failed steps from their saved state.
	 */
	JobExecution restart(Job job, JobExecution failed) {
		try {
			return this.operator.start(job, failed.getJobParameters());
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	@Override
	public void close() {
		this.database.shutdown();
	}

}
