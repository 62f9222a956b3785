package dev.statekit.benchmarks.cost;

import java.util.List;

/**
 * Published on-demand prices in US East (N. Virginia), as looked up on the date below: each with
 * its name, unit and where it is published. Change them here when AWS changes them.
 */
final class Prices {
  /** When the prices below were looked up. */
  static final String AS_OF = "2026-12-01";

  /** One price: dollars per unit. */
  record Price(String name, double dollars, String unit, String source) {
    String line() {
      return String.format(
          java.util.Locale.ROOT, "  %-34s $%s per %s (%s)", name, plain(dollars), unit, source);
    }

    private static String plain(double value) {
      return new java.math.BigDecimal(value).round(new java.math.MathContext(6)).toPlainString();
    }
  }

  static final Price LAMBDA_GB_SECOND =
      new Price(
          "Lambda duration (x86)",
          0.0000166667,
          "GB-second",
          "aws.amazon.com/lambda/pricing, first 6 billion GB-s a month");
  static final Price LAMBDA_REQUEST =
      new Price("Lambda requests", 0.20 / 1e6, "request", "aws.amazon.com/lambda/pricing");
  static final Price DYNAMODB_WRITE =
      new Price(
          "DynamoDB on-demand write",
          0.625 / 1e6,
          "write request unit",
          "aws.amazon.com/dynamodb/pricing/on-demand, since the 2024-11-01 cut");
  static final Price DYNAMODB_READ =
      new Price(
          "DynamoDB on-demand read",
          0.125 / 1e6,
          "read request unit",
          "aws.amazon.com/dynamodb/pricing/on-demand, since the 2024-11-01 cut");
  static final Price SQS_FIFO_REQUEST =
      new Price(
          "SQS FIFO requests",
          0.50 / 1e6,
          "request (64 KB chunk)",
          "aws.amazon.com/sqs/pricing, first 100 billion a month");
  static final Price KINESIS_SHARD_HOUR =
      new Price(
          "Kinesis provisioned shard",
          0.015,
          "shard-hour",
          "aws.amazon.com/kinesis/data-streams/pricing");
  static final Price KINESIS_PUT_UNIT =
      new Price(
          "Kinesis provisioned PUT payload",
          0.014 / 1e6,
          "25 KB payload unit",
          "aws.amazon.com/kinesis/data-streams/pricing");
  static final Price FLINK_KPU_HOUR =
      new Price(
          "Managed Flink KPU",
          0.11,
          "KPU-hour",
          "aws.amazon.com/managed-service-apache-flink/pricing; +1 orchestration KPU an app");
  static final Price FLINK_RUNNING_STORAGE =
      new Price(
          "Managed Flink running storage",
          0.10,
          "GB-month",
          "aws.amazon.com/managed-service-apache-flink/pricing; 50 GB a KPU");

  static final List<Price> ALL =
      List.of(
          LAMBDA_GB_SECOND,
          LAMBDA_REQUEST,
          DYNAMODB_WRITE,
          DYNAMODB_READ,
          SQS_FIFO_REQUEST,
          KINESIS_SHARD_HOUR,
          KINESIS_PUT_UNIT,
          FLINK_KPU_HOUR,
          FLINK_RUNNING_STORAGE);

  private Prices() {}
}
