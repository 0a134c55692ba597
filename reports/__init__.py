"""Reports: JSON certificate, HTML report and plots, PAR sheet, pay-glass (PT and more)."""
