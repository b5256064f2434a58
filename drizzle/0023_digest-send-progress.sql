ALTER TABLE "alert_runs" DROP CONSTRAINT "alert_runs_mail_check";--> statement-breakpoint
ALTER TABLE "alert_runs" ADD COLUMN "mail_sender" text;--> statement-breakpoint
ALTER TABLE "alert_runs" ADD CONSTRAINT "alert_runs_mail_check" CHECK ("alert_runs"."mail" in ('none', 'pending', 'handing_over', 'sending', 'sent', 'failed'));